//! What generated code calls. Not a public API: names and signatures change
//! with the derive.

pub use std::borrow::Borrow;
pub use std::collections::HashMap;
pub use std::convert::AsRef;
pub use std::default::Default;
pub use std::fmt::{Debug, Formatter, Result as FmtResult};
pub use std::marker::PhantomData;
pub use std::ops::Deref;
pub use std::option::Option::{self, None, Some};
pub use std::result::Result::{self, Err, Ok};
pub use std::string::String;

pub use aws_sdk_dynamodb::types::AttributeValue;

pub use crate::codec::{
    check_discriminator, decode_field, serde_from_item, Attr, AttrPath, DecodeError, Item,
    ItemReader, SetMember, Ttl,
};
pub use crate::entity::{
    Entity, EntityMeta, FieldMeta, IndexKind, IndexMeta, IndexProjection, KeyMeta,
};
pub use crate::error::{EncodeError, KeyFormatError, KeyFormatReason};
pub use crate::key::cond::bounds;
pub use crate::key::{
    parse, parts, CondResult, Global, GlobalPartial, Key, KeyBuilder, KeyDecimal, KeyKind,
    KeyPadded, KeyPartError, KeyReader, KeyReverse, KeySigned, KeyTemplate, KeyText, KeyWriter,
    Local, LocalPartial, PartFormat, PartitionKey, SortKeyCondition, SortKeyFull, SortKeyNext,
    SortKeyOp, SortKeyTextNext, Table, TemplatePart,
};
pub use crate::query::{same_field, Projection};
pub use crate::rules::{check_entity, check_field};

pub use std::sync::OnceLock;

/// Every attribute name an entity's items can hold, in a map hashed once
/// per process. `to_item` clones it (a clone copies the table as it is: no
/// name is hashed again) and then puts each value in its slot.
pub struct ItemTemplate {
    item: Item,
    /// For each entry of `item` in iteration order, its index in `names`.
    order: Vec<usize>,
}

impl ItemTemplate {
    fn new(names: &[&'static str]) -> Self {
        let mut item = Item::with_capacity(names.len());
        for name in names {
            item.insert((*name).to_owned(), AttributeValue::Null(true));
        }
        let order = item
            .keys()
            .map(|k| names.iter().position(|n| n == k).unwrap_or(usize::MAX))
            .collect();
        ItemTemplate { item, order }
    }

    /// The item: the template of `names` (made on first use) with slot
    /// `names[i]` given `values[i]`, slots whose value is `None` left out.
    /// A clone of a map visits its entries in the original's order, so the
    /// k-th entry's name is `names[order[k]]` (checked, and looked up when
    /// it is not).
    pub fn fill(
        cell: &'static OnceLock<ItemTemplate>,
        names: &[&'static str],
        values: &mut [Option<AttributeValue>],
    ) -> Item {
        let t = cell.get_or_init(|| Self::new(names));
        let mut item = t.item.clone();
        let mut k = 0;
        item.retain(|name, slot| {
            let i = match t.order.get(k) {
                Some(&i) if names.get(i).is_some_and(|n| n == name) => i,
                _ => names.iter().position(|n| n == name).unwrap_or(usize::MAX),
            };
            k += 1;
            match values.get_mut(i).and_then(Option::take) {
                Some(v) => {
                    *slot = v;
                    true
                }
                None => false,
            }
        });
        item
    }
}

/// The values of one item while `to_item` computes them, slot `i` for
/// `names[i]` of [`ItemTemplate::fill`]. Every value goes in with one call
/// and no early return, and the first error is kept for
/// [`ItemWriter::finish`]: the generated function stays straight-line code,
/// which is what it costs to compile per entity.
pub struct ItemWriter<const N: usize> {
    values: [Option<AttributeValue>; N],
    error: Option<EncodeError>,
}

impl<const N: usize> Default for ItemWriter<N> {
    fn default() -> Self {
        ItemWriter {
            values: [const { None }; N],
            error: None,
        }
    }
}

impl<const N: usize> ItemWriter<N> {
    /// Slot `i` gets `v` unless `v` is `None`: when two sources feed one
    /// attribute, the last one with a value wins.
    pub fn set(&mut self, i: usize, v: Option<AttributeValue>) {
        set_slot(&mut self.values, i, v);
    }

    /// A constant text (the discriminator).
    pub fn text(&mut self, i: usize, v: &'static str) {
        set_slot(&mut self.values, i, Some(AttributeValue::S(v.to_owned())));
    }

    /// A key's text, or the error that kept it from being written.
    pub fn key(&mut self, i: usize, k: Result<String, KeyFormatError>) {
        match k {
            Ok(k) => set_slot(&mut self.values, i, Some(AttributeValue::S(k))),
            Err(e) => keep_error(&mut self.error, e.into()),
        }
    }

    /// A sparse index's key: `None` while an input is absent.
    pub fn sparse_key(&mut self, i: usize, k: Option<Result<String, KeyFormatError>>) {
        if let Some(k) = k {
            self.key(i, k);
        }
    }

    /// A value whose encoding can fail (a `serde` field).
    pub fn encoded(&mut self, i: usize, v: Result<Option<AttributeValue>, EncodeError>) {
        match v {
            Ok(v) => set_slot(&mut self.values, i, v),
            Err(e) => keep_error(&mut self.error, e),
        }
    }

    /// The item, or the first error met. By reference: the values are
    /// taken out of their slots, and the array is not moved.
    pub fn finish(
        &mut self,
        cell: &'static OnceLock<ItemTemplate>,
        names: &[&'static str],
    ) -> Result<Item, EncodeError> {
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(ItemTemplate::fill(cell, names, &mut self.values)),
        }
    }
}

fn set_slot(values: &mut [Option<AttributeValue>], i: usize, v: Option<AttributeValue>) {
    if let (Some(v), Some(slot)) = (v, values.get_mut(i)) {
        *slot = Some(v);
    }
}

fn keep_error(first: &mut Option<EncodeError>, e: EncodeError) {
    if first.is_none() {
        *first = Some(e);
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

/// An attribute value, or nothing when the value is empty (`omit_empty`).
#[inline]
pub fn attr_unless_empty<T: Attr>(v: &T) -> Option<AttributeValue> {
    if v.is_empty_value() {
        None
    } else {
        v.to_attr()
    }
}

/// Reads attribute `name`, or the type's default when the item lacks it
/// (`omit_empty`: an empty value is stored as no attribute).
pub fn decode_or_default<T: Attr + Default>(
    item: &Item,
    name: &str,
    path: &AttrPath<'_>,
) -> Result<T, DecodeError> {
    match item.get(name) {
        Some(v) => T::from_attr(v, &path.field(name)),
        None => Ok(T::default()),
    }
}

/// Template parts, as the derive writes them.
pub const fn lit(text: &'static str) -> TemplatePart {
    TemplatePart::Lit(text)
}

/// A placeholder part.
pub const fn part(name: &'static str, format: PartFormat) -> TemplatePart {
    TemplatePart::Field { name, format }
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
pub use crate::union::EntityUnion;
pub use dynakey_derive::__table_step as table_step;

pub use crate::number::number_problem;
pub use crate::size::{item_size, value_size, MAX_ITEM_SIZE};

pub use crate::error::Error;
pub use crate::expr::{Condition, Update};
pub use crate::update::{
    Field, Fold, Folded, InputComplete, IntoField, Mark, Nil, Patch, Rem, Removed, RequiredSet,
    Set, Sets, State, TableKeyField, TypedUpdate, Unset, UpdateCore, UpdateMode, UpdateParts,
    Upsert,
};

/// A kept value of an optional field (`Some(None)`: removed) as the key
/// writer takes it.
#[inline]
pub fn flat<T>(v: &Option<Option<T>>) -> Option<&T> {
    v.as_ref().and_then(Option::as_ref)
}

/// `v` unless it is empty (`omit_empty`): an empty input leaves a sparse
/// index like an absent one.
#[inline]
pub fn nonempty<T: Attr>(v: Option<&T>) -> Option<&T> {
    v.filter(|v| !v.is_empty_value())
}

/// The body of a failed derive's functions: they keep call sites free of
/// errors of their own, and never run (the crate does not compile).
#[cold]
pub fn stub() -> ! {
    unreachable!("the stub of a derive that failed to compile ran")
}

/// The sort-key steps of a failed derive: every comparison takes any
/// value, so a call site adds no error to the derive's own.
pub struct SortKeyStub<E, K>(PhantomData<fn() -> (E, K)>);

impl<E, K> Debug for SortKeyStub<E, K> {
    fn fmt(&self, f: &mut Formatter<'_>) -> FmtResult {
        f.write_str("SortKeyStub")
    }
}

impl<E, K: KeyKind> SortKeyStub<E, K> {
    /// A step.
    pub const fn new() -> Self {
        SortKeyStub(PhantomData)
    }
    /// Never runs.
    pub fn begins_with(&self) -> CondResult<E, K> {
        stub()
    }
    /// Never runs.
    pub fn eq(&self) -> CondResult<E, K> {
        stub()
    }
    /// Never runs.
    pub fn starts_with(&self, _: impl Sized) -> CondResult<E, K> {
        stub()
    }
    /// Never runs.
    pub fn lt(&self, _: impl Sized) -> CondResult<E, K> {
        stub()
    }
    /// Never runs.
    pub fn le(&self, _: impl Sized) -> CondResult<E, K> {
        stub()
    }
    /// Never runs.
    pub fn gt(&self, _: impl Sized) -> CondResult<E, K> {
        stub()
    }
    /// Never runs.
    pub fn ge(&self, _: impl Sized) -> CondResult<E, K> {
        stub()
    }
    /// Never runs.
    pub fn between(&self, _: impl Sized, _: impl Sized) -> CondResult<E, K> {
        stub()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> Option<AttributeValue> {
        Some(AttributeValue::S(v.to_owned()))
    }

    fn serde_err(field: &'static str) -> EncodeError {
        EncodeError::Serde {
            field,
            message: "no".to_owned(),
        }
    }

    #[test]
    fn item_writer_keeps_the_last_value_and_leaves_out_empty_slots() {
        static T: OnceLock<ItemTemplate> = OnceLock::new();
        let mut w = ItemWriter::<3>::default();
        w.text(0, "E");
        w.set(1, s("first"));
        // A second source for the same attribute: the last value wins, and
        // a source without a value leaves the slot as it is.
        w.set(1, s("second"));
        w.set(1, None);
        w.sparse_key(2, None);
        let item = w.finish(&T, &["_type", "a", "gone"]).unwrap();
        assert_eq!(item.len(), 2);
        assert_eq!(item["_type"], AttributeValue::S("E".into()));
        assert_eq!(item["a"], AttributeValue::S("second".into()));
    }

    #[test]
    fn item_writer_reports_the_first_error() {
        static T: OnceLock<ItemTemplate> = OnceLock::new();
        let mut w = ItemWriter::<2>::default();
        w.set(0, s("x"));
        w.encoded(1, Err(serde_err("one")));
        w.encoded(1, Err(serde_err("two")));
        match w.finish(&T, &["x", "y"]) {
            Err(EncodeError::Serde { field, .. }) => assert_eq!(field, "one"),
            other => panic!("expected the first error, got {other:?}"),
        }
    }
}
