//! What generated code calls. Not a public API: names and signatures change
//! with the derive.

pub use std::borrow::Borrow;
pub use std::collections::HashMap;
pub use std::option::Option::{self, None, Some};
pub use std::result::Result::{self, Err, Ok};
pub use std::string::String;

pub use aws_sdk_dynamodb::types::AttributeValue;

pub use crate::codec::{decode_field, Attr, AttrPath, DecodeError, Item, SetMember};
pub use crate::entity::{Entity, EntityMeta, FieldMeta, IndexKind, IndexMeta, KeyMeta};
pub use crate::error::{EncodeError, KeyFormatError, KeyFormatReason};
pub use crate::key::cond::bounds;
pub use crate::key::{
    Global, Key, KeyDecimal, KeyKind, KeyPadded, KeyPartError, KeyReader, KeyReverse, KeySigned,
    KeyTemplate, KeyText, KeyWriter, Local, PartFormat, PartitionKey, SortKeyCondition, SortKeyOp,
    Table, TemplatePart,
};

pub use std::sync::OnceLock;

/// Every attribute name an entity's items can hold, in a map hashed once
/// per process. `to_item` clones it (a clone copies the table as it is: no
/// name is hashed again) and then puts each value in its slot.
pub struct ItemTemplate {
    item: Item,
}

impl ItemTemplate {
    fn new(names: &[&'static str]) -> Self {
        let mut item = Item::with_capacity(names.len());
        for name in names {
            item.insert((*name).to_owned(), AttributeValue::Null(true));
        }
        ItemTemplate { item }
    }

    /// The item: the template of `names` (made on first use), each slot
    /// given `value(name)`, slots whose value is `None` left out.
    #[inline]
    pub fn build(
        cell: &'static OnceLock<ItemTemplate>,
        names: &[&'static str],
        mut value: impl FnMut(&str) -> Option<AttributeValue>,
    ) -> Item {
        let mut item = cell.get_or_init(|| Self::new(names)).item.clone();
        item.retain(|name, slot| match value(name) {
            Some(v) => {
                *slot = v;
                true
            }
            None => false,
        });
        item
    }
}

/// Inserts an attribute unless it encodes to nothing.
#[inline]
pub fn put_attr<T: Attr>(item: &mut Item, name: &'static str, v: &T) {
    if let Some(a) = v.to_attr() {
        item.insert(name.to_owned(), a);
    }
}

/// Inserts an attribute unless it is empty (`omit_empty`) or encodes to nothing.
#[inline]
pub fn put_attr_omit_empty<T: Attr>(item: &mut Item, name: &'static str, v: &T) {
    if !v.is_empty_value() {
        put_attr(item, name, v);
    }
}

/// Inserts a string attribute.
#[inline]
pub fn put_s(item: &mut Item, name: &'static str, v: String) {
    item.insert(name.to_owned(), AttributeValue::S(v));
}

/// A `#[dynamo(serde)]` field: through serde_dynamo.
pub fn serde_to_attr<T: serde::Serialize>(
    v: &T,
    field: &'static str,
) -> Result<Option<AttributeValue>, EncodeError> {
    serde_dynamo::to_attribute_value(v)
        .map(Some)
        .map_err(|e| EncodeError::Serde {
            field,
            message: e.to_string(),
        })
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

/// A TTL field: epoch seconds (N).
pub trait Ttl: Sized {
    /// The epoch seconds, or `None` for no expiry.
    fn ttl_to_attr(&self) -> Option<AttributeValue>;
    /// Reads epoch seconds back.
    fn ttl_from_item(item: &Item, name: &str, path: &AttrPath<'_>) -> Result<Self, DecodeError>;
}

impl Ttl for time::OffsetDateTime {
    fn ttl_to_attr(&self) -> Option<AttributeValue> {
        Some(AttributeValue::N(self.unix_timestamp().to_string()))
    }
    fn ttl_from_item(item: &Item, name: &str, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
        let secs: i64 = decode_field(item, name, path)?;
        time::OffsetDateTime::from_unix_timestamp(secs)
            .map_err(|_| DecodeError::new(&path.field(name), "epoch seconds", secs.to_string()))
    }
}

impl Ttl for Option<time::OffsetDateTime> {
    fn ttl_to_attr(&self) -> Option<AttributeValue> {
        self.as_ref().and_then(Ttl::ttl_to_attr)
    }
    fn ttl_from_item(item: &Item, name: &str, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
        if item.contains_key(name) {
            time::OffsetDateTime::ttl_from_item(item, name, path).map(Some)
        } else {
            Ok(None)
        }
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
            crate::codec::describe_value(other),
        )),
    }
}

/// Decodes a unit enum from its name.
pub fn unit_enum_mismatch(
    value: &AttributeValue,
    path: &AttrPath<'_>,
    names: &'static [&'static str],
) -> DecodeError {
    DecodeError::new(
        path,
        format!("S, one of {}", names.join(", ")),
        crate::codec::describe_value(value),
    )
}

/// A unit-enum key part that names no variant.
pub fn unknown_variant(s: &str, names: &'static [&'static str]) -> KeyPartError {
    KeyPartError::new(
        s,
        KeyFormatReason::Malformed {
            expected: format!("one of {}", names.join(", ")),
        },
    )
}

pub use crate::batch::Unversioned;
pub use crate::schema;
pub use crate::table_check;
pub use crate::union::EntityUnion;

pub use crate::consistency::{indexes_agree, same_table_key, shadows, starts_with, str_eq};
pub use crate::number::number_problem;
pub use crate::size::{item_size, value_size, MAX_ITEM_SIZE};

pub use crate::error::Error;
pub use crate::expr::{Condition, Update};
pub use crate::update::{
    Field, Fold, IntoField, Nil, Patch, Rem, Removed, Set, Sets, State, TypedUpdate, Unset,
    UpdateMode, UpdateParts, Upsert,
};
