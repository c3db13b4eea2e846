//! What a derived `from_item` reads an item with: the discriminator
//! checked once, then each field by its attribute name, the type inferred
//! from the struct's field. One call per field keeps the generated function
//! small; the rules (a missing attribute, a default, a decoding error's
//! path) live here once.
//!
//! The attributes are found without hashing their names. An item's map
//! hashes a name with its own SipHash keys on every lookup: 11 lookups are
//! about 1,800 of the 6,200 instructions the codec benchmark's `from_item`
//! took that way (callgrind). The reader instead lists the item's entries
//! once (a walk over the table, no hashing), each name with a one-word
//! head of its length and first bytes, and finds a field by comparing
//! heads (5,400 instructions in all). Items of more than [`LISTED`]
//! attributes (an entity read from items other writers widened) are looked
//! up in the map as before: scanning a long list would cost more than the
//! hash.

use aws_sdk_dynamodb::types::AttributeValue;

use super::{describe_value, Attr, AttrPath, DecodeError, Item};
use crate::codec::ttl::Ttl;

/// A stored item (or a nested map) being read field by field.
///
/// ```
/// use dynakey_runtime::__private::ItemReader;
/// use aws_sdk_dynamodb::types::AttributeValue;
/// let mut item = dynakey_runtime::Item::new();
/// item.insert("_type".into(), AttributeValue::S("NOTE".into()));
/// item.insert("n".into(), AttributeValue::N("3".into()));
/// let r = ItemReader::new(&item, "_type", "NOTE").unwrap();
/// let n: u32 = r.get("n").unwrap();
/// let gone: Option<String> = r.get("text").unwrap();
/// let visits: u64 = r.or_default("visits").unwrap();
/// assert_eq!((n, gone, visits), (3, None, 0));
/// assert!(ItemReader::new(&item, "_type", "USER").is_err());
/// ```
pub struct ItemReader<'a> {
    item: &'a Item,
    path: AttrPath<'a>,
    /// The item's entries when it has at most [`LISTED`] of them.
    listed: Option<Listed<'a>>,
}

/// The most attributes an item may have for the reader to list them.
const LISTED: usize = 16;

/// An item's entries, in the map's order, each name with its head: its
/// length and first bytes in one word, so that finding a name compares
/// words, and bytes only for names longer than a head holds.
struct Listed<'a> {
    len: usize,
    heads: [u64; LISTED],
    names: [&'a str; LISTED],
    values: [Option<&'a AttributeValue>; LISTED],
}

/// The bytes of a name a head holds.
const HEAD_BYTES: usize = 7;

/// A name's length (up to 255) in the top byte and its first seven bytes
/// below, read without a loop or a copy: equal heads mean equal names for
/// names of at most seven bytes.
#[inline]
fn head(name: &str) -> u64 {
    let b = name.as_bytes();
    let len = b.len();
    let low = match len {
        0 => 0,
        // Each byte read at its own place: 0, the middle, the last.
        1..=3 => {
            u64::from(b[0])
                | u64::from(b[len / 2]) << (8 * (len / 2))
                | u64::from(b[len - 1]) << (8 * (len - 1))
        }
        // Two overlapping words; the bytes they share are the same bytes.
        4..=7 => {
            let lo = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            let hi = u32::from_le_bytes([b[len - 4], b[len - 3], b[len - 2], b[len - 1]]);
            u64::from(lo) | u64::from(hi) << (8 * (len - 4))
        }
        _ => {
            let w = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
            w & 0x00FF_FFFF_FFFF_FFFF
        }
    };
    low | (len.min(255) as u64) << 56
}

impl<'a> Listed<'a> {
    #[inline]
    fn of(item: &'a Item) -> Option<Self> {
        if item.len() > LISTED {
            return None;
        }
        let mut l = Listed {
            len: item.len(),
            heads: [0; LISTED],
            names: [""; LISTED],
            values: [None; LISTED],
        };
        for (i, (k, v)) in item.iter().enumerate() {
            l.heads[i] = head(k);
            l.names[i] = k;
            l.values[i] = Some(v);
        }
        Some(l)
    }

    #[inline]
    fn get(&self, name: &str) -> Option<&'a AttributeValue> {
        let h = head(name);
        let short = name.len() <= HEAD_BYTES;
        self.heads
            .iter()
            .zip(&self.names)
            .zip(&self.values)
            .take(self.len)
            .find(|((&x, n), _)| x == h && (short || **n == name))
            .and_then(|(_, v)| *v)
    }
}

impl<'a> ItemReader<'a> {
    /// A top-level item of the entity whose discriminator `disc` is kept in
    /// `attr` (an item without the attribute is read too: a projection or
    /// an item written by another client).
    #[inline]
    pub fn new(
        item: &'a Item,
        attr: &'static str,
        disc: &'static str,
    ) -> Result<Self, DecodeError> {
        let r = Self::nested(item, AttrPath::root(""));
        check_value(r.value(attr), attr, disc)?;
        Ok(r)
    }

    /// The nested struct stored in `value` at `path`: a map, refused when
    /// it lies at the deepest level DynamoDB stores (what it holds would
    /// be deeper), before any of it is read.
    #[inline]
    pub fn map(value: &'a AttributeValue, path: &AttrPath<'a>) -> Result<Self, DecodeError> {
        match value {
            AttributeValue::M(m) => {
                super::depth::enter(path)?;
                Ok(Self::nested(m, *path))
            }
            other => Err(DecodeError::mismatch(path, "M (map)", other)),
        }
    }

    /// A nested map below `path`.
    #[inline]
    pub fn nested(item: &'a Item, path: AttrPath<'a>) -> Self {
        ItemReader {
            item,
            path,
            listed: Listed::of(item),
        }
    }

    /// The value of attribute `name`, if the item has it.
    #[inline]
    fn value(&self, name: &str) -> Option<&'a AttributeValue> {
        match &self.listed {
            Some(l) => l.get(name),
            None => self.item.get(name),
        }
    }

    /// The attribute `name` (an absent one as the type reads absence: an
    /// `Option` is `None`, a required value is an error).
    pub fn get<T: Attr>(&self, name: &str) -> Result<T, DecodeError> {
        let path = self.path.field(name);
        match self.value(name) {
            Some(v) => T::from_attr(v, &path),
            None => T::from_missing(&path),
        }
    }

    /// The attribute `name`, or the type's default when the item lacks it
    /// (`#[dynamo(default)]`, and `omit_empty`, whose empty value is stored
    /// as no attribute).
    pub fn or_default<T: Attr + Default>(&self, name: &str) -> Result<T, DecodeError> {
        self.or_else(name, T::default)
    }

    /// The attribute `name`, or `default()` when the item lacks it
    /// (`#[dynamo(default = "path")]`).
    pub fn or_else<T: Attr>(
        &self,
        name: &str,
        default: impl FnOnce() -> T,
    ) -> Result<T, DecodeError> {
        match self.value(name) {
            Some(v) => T::from_attr(v, &self.path.field(name)),
            None => Ok(default()),
        }
    }

    /// A `#[dynamo(serde)]` field, through serde_dynamo.
    pub fn serde<T: serde::de::DeserializeOwned>(&self, name: &str) -> Result<T, DecodeError> {
        serde_from_item(self.item, name, &self.path)
    }

    /// A `#[dynamo(ttl)]` field: epoch seconds.
    pub fn ttl<T: Ttl>(&self, name: &str) -> Result<T, DecodeError> {
        T::ttl_from_item(self.item, name, &self.path)
    }
}

/// Checks the discriminator of an item, if it carries one.
pub fn check_discriminator(
    item: &Item,
    attr: &'static str,
    expected: &'static str,
) -> Result<(), DecodeError> {
    check_value(item.get(attr), attr, expected)
}

/// [`check_discriminator`] of the value found at `attr`.
fn check_value(
    value: Option<&AttributeValue>,
    attr: &'static str,
    expected: &'static str,
) -> Result<(), DecodeError> {
    match value {
        None => Ok(()),
        Some(AttributeValue::S(s)) if s == expected => Ok(()),
        Some(other) => Err(DecodeError::new(
            &AttrPath::root(attr),
            format!("S {expected:?}"),
            describe_value(other),
        )),
    }
}

/// A `#[dynamo(serde)]` field read back through serde_dynamo; a value
/// nested past the levels DynamoDB stores is refused before serde reads
/// it (serde_dynamo recurses, and has no limit of its own).
pub fn serde_from_item<T: serde::de::DeserializeOwned>(
    item: &Item,
    name: &str,
    path: &AttrPath<'_>,
) -> Result<T, DecodeError> {
    let path = path.field(name);
    if let Some(below) = item
        .get(name)
        .and_then(|v| super::too_deep(v, path.depth()))
    {
        return Err(DecodeError::too_deep(&path, &below));
    }
    let value = item
        .get(name)
        .cloned()
        .unwrap_or(AttributeValue::Null(true));
    serde_dynamo::from_attribute_value(value)
        .map_err(|e| DecodeError::new(&path, "a value serde can read", e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn item(names: &[String]) -> Item {
        names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), AttributeValue::N(i.to_string())))
            .collect()
    }

    proptest! {
        /// Listed or not, the reader finds exactly what the map holds:
        /// names of equal lengths and equal first bytes (longer than a
        /// head holds), empty names, spaces, delimiters and multi-byte
        /// text among them.
        #[test]
        fn finds_what_the_map_holds(
            names in proptest::collection::vec("[ab#é _]{0,10}", 0..(2 * LISTED)),
            probes in proptest::collection::vec("[ab#é _]{0,10}", 0..8),
        ) {
            let item = item(&names);
            let r = ItemReader::nested(&item, AttrPath::root(""));
            prop_assert_eq!(r.listed.is_some(), item.len() <= LISTED);
            for name in names.iter().chain(&probes) {
                prop_assert_eq!(r.value(name), item.get(name.as_str()));
                let got: Option<u32> = r.get(name).unwrap();
                let want = item.get(name.as_str()).map(|v| v.as_n().unwrap().parse().unwrap());
                prop_assert_eq!(got, want);
            }
        }
    }

    #[test]
    fn the_discriminator_is_checked_from_the_list_and_from_the_map() {
        for extra in [0, LISTED] {
            let mut names: Vec<String> = (0..extra).map(|i| format!("x{i}")).collect();
            names.push("_type".into());
            let mut item = item(&names);
            // A number where the text is expected: refused, the path named.
            let err = ItemReader::new(&item, "_type", "NOTE").err().unwrap();
            assert!(err.to_string().contains("_type"), "{err}");
            item.insert("_type".into(), AttributeValue::S("NOTE".into()));
            assert!(ItemReader::new(&item, "_type", "NOTE").is_ok());
            assert!(ItemReader::new(&item, "_type", "USER").is_err());
            item.remove("_type");
            assert!(
                ItemReader::new(&item, "_type", "NOTE").is_ok(),
                "absent: read"
            );
        }
    }
}
