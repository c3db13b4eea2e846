//! What a derived `from_item` reads an item with: the discriminator
//! checked once, then each field by its attribute name, the type inferred
//! from the struct's field. One call per field keeps the generated function
//! small; the rules (a missing attribute, a default, a decoding error's
//! path) live here once.

use aws_sdk_dynamodb::types::AttributeValue;

use super::{decode_field, describe_value, Attr, AttrPath, DecodeError, Item};
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
}

impl<'a> ItemReader<'a> {
    /// A top-level item of the entity whose discriminator `disc` is kept in
    /// `attr` (an item without the attribute is read too: a projection or
    /// an item written by another client).
    pub fn new(
        item: &'a Item,
        attr: &'static str,
        disc: &'static str,
    ) -> Result<Self, DecodeError> {
        check_discriminator(item, attr, disc)?;
        Ok(ItemReader {
            item,
            path: AttrPath::root(""),
        })
    }

    /// A nested map below `path`.
    pub fn nested(item: &'a Item, path: AttrPath<'a>) -> Self {
        ItemReader { item, path }
    }

    /// The attribute `name` (an absent one as the type reads absence: an
    /// `Option` is `None`, a required value is an error).
    pub fn get<T: Attr>(&self, name: &str) -> Result<T, DecodeError> {
        decode_field(self.item, name, &self.path)
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
        match self.item.get(name) {
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
    match item.get(attr) {
        None => Ok(()),
        Some(AttributeValue::S(s)) if s == expected => Ok(()),
        Some(other) => Err(DecodeError::new(
            &AttrPath::root(attr),
            format!("S {expected:?}"),
            describe_value(other),
        )),
    }
}

/// A `#[dynamo(serde)]` field read back through serde_dynamo.
pub fn serde_from_item<T: serde::de::DeserializeOwned>(
    item: &Item,
    name: &str,
    path: &AttrPath<'_>,
) -> Result<T, DecodeError> {
    let path = path.field(name);
    let value = item
        .get(name)
        .cloned()
        .unwrap_or(AttributeValue::Null(true));
    serde_dynamo::from_attribute_value(value)
        .map_err(|e| DecodeError::new(&path, "a value serde can read", e.to_string()))
}
