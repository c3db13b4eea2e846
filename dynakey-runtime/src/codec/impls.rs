//! [`Attr`] for standard, time, uuid, decimal and collection types.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::{BuildHasher, Hash};

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use rust_decimal::Decimal;
use uuid::Uuid;

use super::depth::enter;
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

/// An integer from any form of number a client writes: `100`, and also
/// `1E+2` or `100.0` (boto3 and others write these; DynamoDB keeps them).
fn int<T: std::str::FromStr + TryFrom<i128>>(n: &str) -> Option<T> {
    n.parse()
        .ok()
        .or_else(|| crate::number::integer(n).and_then(|v| T::try_from(v).ok()))
}

/// A decimal in plain or scientific notation, only where `Decimal` holds it
/// exactly: DynamoDB keeps 38 significant digits (boto3 writes that many),
/// `Decimal` 28, and its parser rounds what does not fit, so a longer
/// number is refused rather than read as another value.
fn decimal(n: &str) -> Option<Decimal> {
    let unsigned = n.strip_prefix('+').unwrap_or(n);
    let d = unsigned
        .parse::<Decimal>()
        .ok()
        .or_else(|| Decimal::from_scientific(unsigned).ok())?;
    // Plain text of at most 28 characters has at most 28 digits: exact.
    let plain = !unsigned.contains(['e', 'E']);
    if plain && unsigned.len() <= 28 {
        return Some(d);
    }
    let same = crate::number::compare(&d.to_string(), n) == Some(std::cmp::Ordering::Equal);
    same.then_some(d)
}

/// Integer text without the formatting machinery: the codec's hot path
/// (`to_string` goes through `Formatter` and costs several times more;
/// itoa, which the SDK's own number writing uses, writes two digits a step).
fn int_text<I: itoa::Integer>(v: I) -> String {
    itoa::Buffer::new().format(v).to_owned()
}

/// A string of ASCII bytes (digits, sign, point), copied in one go.
fn ascii(bytes: &[u8]) -> String {
    // The bytes are ASCII by construction; the check is a few compares.
    std::str::from_utf8(bytes).map_or_else(|_| String::new(), str::to_owned)
}

/// `f64` text, the same string `to_string` gives. Most stored numbers are
/// short decimals (`98.25`, `0.1`, `3`): those are written here without
/// `Formatter`'s shortest-digits search, which costs ~900 instructions.
fn f64_text(v: f64) -> String {
    short_decimal(v).unwrap_or_else(|| v.to_string())
}

/// `v` as the decimal `m / 10^k` with the smallest `k <= 15` such that `m`
/// is an integer below 2^52 and `m / 10^k` rounds back to exactly `v`.
///
/// That decimal is what `Display` prints: below 2^52 an ulp of `v` is
/// smaller than `10^-k`, so no other number with `k` or fewer decimals
/// rounds to `v`, and `Display` prints the shortest such number (trailing
/// zeros of the fraction stripped, no exponent). `None` for everything
/// else (`-0.0`, NaN, infinities, long fractions), which goes through
/// `to_string`.
fn short_decimal(v: f64) -> Option<String> {
    const LIMIT: f64 = 4_503_599_627_370_496.0; // 2^52
    const POW10: [f64; 16] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ];
    if !v.is_finite() || (v == 0.0 && v.is_sign_negative()) {
        return None;
    }
    for (k, &p) in POW10.iter().enumerate() {
        let scaled = v * p;
        if scaled.abs() >= LIMIT {
            return None;
        }
        let m = scaled as i64;
        // `p` is exact (10^15 < 2^53), so the division rounds once: equal
        // means the decimal `m / 10^k` rounds to `v`.
        if m as f64 == scaled && scaled / p == v {
            return Some(decimal_text(m, k));
        }
    }
    None
}

/// `m / 10^k` in plain decimal notation, without trailing fraction zeros.
fn decimal_text(m: i64, k: usize) -> String {
    let negative = m < 0;
    let mut mag = m.unsigned_abs();
    let mut k = k;
    while k > 0 && mag.is_multiple_of(10) {
        mag /= 10;
        k -= 1;
    }
    // At most 16 digits (m < 2^52), a leading "0." and a sign.
    let mut buf = [b'0'; 20];
    let mut i = buf.len();
    let mut written = 0;
    while mag > 0 || written <= k {
        if written == k && k > 0 {
            i -= 1;
            buf[i] = b'.';
        }
        i -= 1;
        buf[i] = b'0' + (mag % 10) as u8;
        mag /= 10;
        written += 1;
    }
    if negative {
        i -= 1;
        buf[i] = b'-';
    }
    ascii(&buf[i..])
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

#[cfg(test)]
mod tests {
    use super::{decimal, f64_text, int_text};

    #[test]
    fn a_decimal_is_read_exactly_or_refused() {
        let d = |n: &str| decimal(n).map(|d| d.to_string());
        for (text, value) in [
            ("98.25", "98.25"),
            ("1E+2", "100"),
            ("+5", "5"),
            ("-0", "0"),
            ("0.000", "0.000"),
            ("1.5e-3", "0.0015"),
            // 28 significant digits: what Decimal holds.
            (
                "0.3333333333333333333333333333",
                "0.3333333333333333333333333333",
            ),
            (
                "7922816251426433759354395033.5",
                "7922816251426433759354395033.5",
            ),
        ] {
            assert_eq!(d(text).as_deref(), Some(value), "{text}");
        }
        // 38 digits (boto3's Decimal(1) / Decimal(3)), and a value past
        // Decimal's range: refused, not rounded.
        assert_eq!(d("0.33333333333333333333333333333333333333"), None);
        assert_eq!(d("1E+40"), None);
        assert_eq!(d("1E-40"), None);
        assert_eq!(d("x"), None);
    }

    #[test]
    fn int_text_matches_to_string() {
        for v in [
            0i64,
            1,
            -1,
            9,
            10,
            -10,
            37,
            1_752_657_120,
            i64::MIN,
            i64::MAX,
        ] {
            assert_eq!(int_text(v), v.to_string());
        }
        assert_eq!(int_text(u64::MAX), u64::MAX.to_string());
        assert_eq!(int_text(i8::MIN), "-128");
    }

    /// A small deterministic generator (xorshift64*), so the test needs no crate.
    fn next(state: &mut u64) -> u64 {
        *state ^= *state >> 12;
        *state ^= *state << 25;
        *state ^= *state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    #[test]
    fn f64_text_matches_to_string() {
        let fixed = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.1,
            0.2,
            0.3,
            0.1 + 0.2,
            98.25,
            -98.25,
            1e-7,
            1e-16,
            1e15,
            1e16,
            1e21,
            1e22,
            4_503_599_627_370_495.0,
            4_503_599_627_370_496.0,
            4_503_599_627_370_497.0,
            9_007_199_254_740_993.0,
            123_456_789.123_456_79,
            0.000_123_4,
            f64::MIN_POSITIVE,
            f64::EPSILON,
            f64::MAX,
            f64::MIN,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            std::f64::consts::PI,
        ];
        for v in fixed {
            assert_eq!(f64_text(v), v.to_string(), "{v:?}");
        }
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200_000 {
            let r = next(&mut state);
            // Decimals with up to 17 digits and up to 17 places, raw bit
            // patterns, and integers around 2^52.
            let digits = r % 100_000_000_000_000_000;
            let places = (next(&mut state) % 18) as i32;
            let sign = if r & 1 == 0 { 1.0 } else { -1.0 };
            let dec = sign * digits as f64 / 10f64.powi(places);
            let parsed: f64 = format!("{digits}e-{places}").parse().unwrap();
            let raw = f64::from_bits(next(&mut state));
            let near =
                (4_503_599_627_370_496i64 + (r % 64) as i64 - 32) as f64 / 10f64.powi(places);
            for v in [dec, parsed, -parsed, raw, near, (r % 10_000) as f64 / 100.0] {
                assert_eq!(f64_text(v), v.to_string(), "{v:?} ({:#x})", v.to_bits());
            }
        }
    }
}
