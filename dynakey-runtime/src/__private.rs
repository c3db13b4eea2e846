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
    Global, Key, KeyDecimal, KeyKind, KeyPadded, KeyPartError, KeyReverse, KeySigned, KeyText,
    Local, PartitionKey, SortKeyCondition, SortKeyOp, Table,
};

use crate::key::formats::check_text;

/// Where a key part is written: for error messages.
#[derive(Clone, Copy)]
pub struct Cx {
    /// The discriminator.
    pub entity: &'static str,
    /// The template.
    pub template: &'static str,
}

impl Cx {
    /// Wraps a part error with its context.
    pub fn err(&self, field: &'static str, e: KeyPartError) -> KeyFormatError {
        KeyFormatError {
            entity: self.entity,
            template: self.template,
            field,
            value: e.value,
            reason: e.reason,
        }
    }

    fn malformed(&self, field: &'static str, value: &str, expected: String) -> KeyFormatError {
        KeyFormatError {
            entity: self.entity,
            template: self.template,
            field,
            value: value.to_owned(),
            reason: KeyFormatReason::Malformed { expected },
        }
    }
}

/// Refuses an empty string part and a part holding the delimiter that
/// follows it in the template.
#[inline]
fn check_part(
    cx: &Cx,
    field: &'static str,
    part: &str,
    delim: Option<char>,
) -> Result<(), KeyFormatError> {
    if part.is_empty() {
        return Err(cx.err(field, KeyPartError::new("", KeyFormatReason::Empty)));
    }
    if let Some(d) = delim {
        if part.contains(d) {
            return Err(cx.err(
                field,
                KeyPartError::new(part, KeyFormatReason::ContainsDelimiter { delimiter: d }),
            ));
        }
    }
    Ok(())
}

/// A string field.
#[inline]
pub fn str_part(
    out: &mut String,
    v: &str,
    cx: &Cx,
    field: &'static str,
    delim: Option<char>,
) -> Result<(), KeyFormatError> {
    check_text(v).map_err(|e| cx.err(field, e))?;
    check_part(cx, field, v, delim)?;
    out.push_str(v);
    Ok(())
}

/// Refuses a key that came out empty.
#[inline]
pub fn non_empty(s: String, cx: &Cx) -> Result<String, KeyFormatError> {
    if s.is_empty() {
        Err(cx.err("", KeyPartError::new("", KeyFormatReason::Empty)))
    } else {
        Ok(s)
    }
}

/// Parsing: strips a literal at the front of `rest`.
pub fn lit<'a>(rest: &'a str, lit: &'static str, cx: &Cx) -> Result<&'a str, KeyFormatError> {
    rest.strip_prefix(lit)
        .ok_or_else(|| cx.malformed("", rest, format!("{lit:?}")))
}

/// Parsing: splits off a field's text, up to the next literal (or the end).
pub fn take<'a>(rest: &'a str, next: Option<&'static str>) -> (&'a str, &'a str) {
    match next {
        Some(n) => match rest.find(n) {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, ""),
        },
        None => (rest, ""),
    }
}

/// Parsing: nothing may follow the last part.
pub fn end(rest: &str, cx: &Cx) -> Result<(), KeyFormatError> {
    if rest.is_empty() {
        Ok(())
    } else {
        Err(cx.malformed("", rest, "the end of the key".to_owned()))
    }
}

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

/// Checks a part written by a [`KeyText`] impl: not empty, and free of the
/// delimiter that follows it.
#[inline]
pub fn check_written(
    out: &str,
    start: usize,
    cx: &Cx,
    field: &'static str,
    delim: Option<char>,
) -> Result<(), KeyFormatError> {
    check_part(cx, field, &out[start..], delim)
}

pub use crate::union::EntityUnion;

pub use crate::consistency::{indexes_agree, same_table_key, shadows, str_eq};

pub use crate::error::Error;
pub use crate::expr::{Condition, Update};
pub use crate::update::{Field, IntoField, Removed, Set, TypedUpdate, Unset, UpdateParts};
