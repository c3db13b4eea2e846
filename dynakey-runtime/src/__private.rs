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
    ItemReader, ItemTemplate, SetMember, Shape, Ttl, Unwritable,
};
pub use crate::entity::serde_field::serde_to_attr;
pub use crate::entity::{
    Entity, EntityMeta, FieldForm, FieldMeta, IndexKind, IndexMeta, IndexProjection, KeyAttrType,
    KeyMeta, NativeAttr,
};
pub use crate::error::{EncodeError, KeyFormatError, KeyFormatReason, KeyRole};
pub use crate::key::cond::bounds;
pub use crate::key::form;
pub use crate::key::{
    native_str, native_str_prefix, NativeArg, NativeKeyAttr, NativeKeyBuilder, NativePrefix,
    NativeSortFull, NativeSortNext,
};
pub use crate::key::{
    parse, parts, slot, slot_opt, CondResult, Global, GlobalPartial, Key, KeyDecimal, KeyKind,
    KeyPadded, KeyPartError, KeyReader, KeyReverse, KeySigned, KeyTemplate, KeyText, KeyWriter,
    Local, LocalPartial, PartFormat, PartitionKey, SortKeyCondition, SortKeyFull, SortKeyNext,
    SortKeyOp, SortKeyTextNext, Table, TemplatePart,
};
pub use crate::query::{Projection, SameField};
pub use crate::rules::{check_entity, check_field};
pub use crate::vector::{Distance, VectorFilter, VectorIndexMeta, VectorScope, VectorValue};

pub use std::sync::OnceLock;

/// The values of one item while `to_item` computes them, slot `i` for
/// `names[i]` of [`ItemTemplate::fill`]. Every value goes in with one call
/// and no early return, and the first error is kept for
/// [`ItemWriter::finish`]: the generated function stays straight-line code,
/// which is what it costs to compile per entity.
pub struct ItemWriter<const N: usize> {
    values: [Option<AttributeValue>; N],
    error: Option<EncodeError>,
    /// The first value with no stored form, by slot (named at `finish`).
    unwritable: Option<(usize, crate::codec::Unwritable)>,
}

impl<const N: usize> Default for ItemWriter<N> {
    fn default() -> Self {
        ItemWriter {
            values: [const { None }; N],
            error: None,
            unwritable: None,
        }
    }
}

impl<const N: usize> ItemWriter<N> {
    /// Slot `i` gets `v` unless `v` is `None`: when two sources feed one
    /// attribute, the last one with a value wins.
    #[inline]
    pub fn set(&mut self, i: usize, v: Option<AttributeValue>) {
        set_slot(&mut self.values, i, v);
    }

    /// A constant text (the discriminator).
    #[inline]
    pub fn text(&mut self, i: usize, v: &'static str) {
        set_slot(&mut self.values, i, Some(AttributeValue::S(v.to_owned())));
    }

    /// A key's text, or the error that kept it from being written.
    #[inline]
    fn key(&mut self, i: usize, k: Result<String, KeyFormatError>) {
        match k {
            Ok(k) => set_slot(&mut self.values, i, Some(AttributeValue::S(k))),
            Err(e) => keep_error(&mut self.error, e.into()),
        }
    }

    /// A field's value; one with no stored form the decoder reads back
    /// ([`Attr::unwritable`]) is the error `finish` reports.
    pub fn attr<T: Attr>(&mut self, i: usize, v: &T) {
        match v.unwritable() {
            None => set_slot(&mut self.values, i, v.to_attr()),
            Some(u) => {
                self.unwritable.get_or_insert((i, u));
            }
        }
    }

    /// A key as its builder wrote it: absent (a sparse index's `None`
    /// input), its text, or the error that kept it from being written.
    pub fn built(&mut self, i: usize, k: crate::key::KeyWriter) {
        if let Some(k) = k.finish_opt() {
            self.key(i, k);
        }
    }

    /// A value whose encoding can fail (a `serde` field).
    #[inline]
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
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        if let Some((i, u)) = self.unwritable.take() {
            return Err(EncodeError::unwritable(
                names.get(i).copied().unwrap_or(""),
                u,
            ));
        }
        Ok(ItemTemplate::fill(cell, names, &mut self.values))
    }
}

#[inline]
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

/// Keeps what it is given with the feature `export` and drops it without:
/// a derived table's `cloudformation` and `terraform` (derived code cannot
/// see this crate's features, so it hands them here).
#[cfg(feature = "export")]
#[doc(hidden)]
#[macro_export]
macro_rules! __dynakey_if_export {
    ($($item:tt)*) => { $($item)* };
}

/// Without the feature `export`: nothing (see the other definition).
#[cfg(not(feature = "export"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __dynakey_if_export {
    ($($item:tt)*) => {};
}

pub use crate::__dynakey_if_export as if_export;

pub use crate::batch::Unversioned;
pub use crate::schema;
pub use crate::union::EntityUnion;
/// The derive's hidden `table_step!`, for derives whose crate path is
/// this crate (`#[dynamo(crate = "dynakey_runtime")]`, the runtime used
/// without the facade); through the facade, `dynakey::__private` brings it.
#[cfg(feature = "derive")]
pub use dynakey_derive::__table_step as table_step;

pub use crate::number::number_problem;
pub use crate::size::{item_size, value_size, MAX_ITEM_SIZE};

pub use crate::error::Error;
pub use crate::expr::{Condition, Update};
pub use crate::update::{
    AllRequired, CheckedUpdate, CompleteUpdate, Field, Fold, Folded, InputComplete, IntoField,
    KeyComplete, Mark, Nil, Patch, Rem, Removed, RequiredSet, Set, Sets, State, TableKeyField,
    TypedUpdate, Unset, UpdateCore, UpdateMode, UpdateParts, UpdateTarget, Upsert,
};

/// `v` unless it is empty (`omit_empty`): an empty input leaves a sparse
/// index like an absent one.
#[inline]
pub fn nonempty<T: Attr>(v: Option<&T>) -> Option<&T> {
    v.filter(|v| !v.is_empty_value())
}

/// A typed update's kept value (see [`Slot`](crate::key::Slot)) unless
/// it is empty (`omit_empty`).
#[inline]
pub fn nonempty_slot<T: Attr>((touched, v): crate::key::Slot<'_, T>) -> crate::key::Slot<'_, T> {
    (touched, nonempty(v))
}

/// What a derived key function returns.
pub type KeyResult<T> = Result<T, KeyFormatError>;

/// The key texts an item gets in an index (partition, sort).
pub type IndexKeys = (String, Option<String>);

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

impl<E, K: KeyKind> Default for SortKeyStub<E, K> {
    fn default() -> Self {
        Self::new()
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

    /// A sparse index's key whose input is absent.
    fn absent() -> KeyWriter {
        static T: KeyTemplate = KeyTemplate::new(
            "E",
            "<a>",
            &[TemplatePart::Field {
                name: "a",
                format: PartFormat::Text,
            }],
        );
        T.build().opt_str(None::<&str>)
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
        w.built(2, absent());
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

/// What an entity's generated block imports with one glob
/// (`use ::dynakey::__private::names::*;`): each item it names, under a
/// one-word name. A path such as `__dk::Some` is three tokens and two
/// lookups, `__dk_Some` one of each, and an entity's expansion names these
/// items about three hundred times; since rustc parses, resolves and hashes
/// the expansion again after every edit, the short names are what keep an
/// incremental build cheap. Every name starts with `__dk_`, so the glob
/// captures no name of the user's module.
#[allow(non_camel_case_types)]
pub mod names {
    pub use super::{
        attr_unless_empty as __dk_attr_unless_empty, check_entity as __dk_check_entity,
        check_field as __dk_check_field, nonempty as __dk_nonempty,
        nonempty_slot as __dk_nonempty_slot, parse as __dk_parse, parts as __dk_parts,
        serde_to_attr as __dk_serde_to_attr, slot as __dk_slot, slot_opt as __dk_slot_opt,
        stub as __dk_stub, AllRequired as __dk_AllRequired, AsRef as __dk_AsRef, Attr as __dk_Attr,
        Borrow as __dk_Borrow, CompleteUpdate as __dk_CompleteUpdate,
        CondResult as __dk_CondResult, Condition as __dk_Condition, Debug as __dk_Debug,
        DecodeError as __dk_DecodeError, Default as __dk_Default, Deref as __dk_Deref,
        Distance as __dk_Distance, EncodeError as __dk_EncodeError, Entity as __dk_Entity,
        EntityMeta as __dk_EntityMeta, Error as __dk_Error, Field as __dk_Field,
        FieldForm as __dk_FieldForm, FieldMeta as __dk_FieldMeta, FmtResult as __dk_FmtResult,
        Formatter as __dk_Formatter, Global as __dk_Global, GlobalPartial as __dk_GlobalPartial,
        IndexKeys as __dk_IndexKeys, IndexKind as __dk_IndexKind, IndexMeta as __dk_IndexMeta,
        IndexProjection as __dk_IndexProjection, IntoField as __dk_IntoField, Item as __dk_Item,
        ItemReader as __dk_ItemReader, ItemTemplate as __dk_ItemTemplate,
        ItemWriter as __dk_ItemWriter, Key as __dk_Key, KeyComplete as __dk_KeyComplete,
        KeyDecimal as __dk_KeyDecimal, KeyMeta as __dk_KeyMeta, KeyPadded as __dk_KeyPadded,
        KeyResult as __dk_KeyResult, KeyReverse as __dk_KeyReverse, KeyRole as __dk_KeyRole,
        KeySigned as __dk_KeySigned, KeyTemplate as __dk_KeyTemplate, KeyText as __dk_KeyText,
        Local as __dk_Local, LocalPartial as __dk_LocalPartial, Mark as __dk_Mark,
        NativeArg as __dk_NativeArg, NativeAttr as __dk_NativeAttr,
        NativeKeyAttr as __dk_NativeKeyAttr, NativeKeyBuilder as __dk_NativeKeyBuilder,
        NativeSortFull as __dk_NativeSortFull, NativeSortNext as __dk_NativeSortNext,
        None as __dk_None, Ok as __dk_Ok, OnceLock as __dk_OnceLock,
        PartitionKey as __dk_PartitionKey, PhantomData as __dk_PhantomData,
        Removed as __dk_Removed, Result as __dk_Result, Set as __dk_Set, Shape as __dk_Shape,
        Some as __dk_Some, SortKeyFull as __dk_SortKeyFull, SortKeyNext as __dk_SortKeyNext,
        SortKeyStub as __dk_SortKeyStub, SortKeyTextNext as __dk_SortKeyTextNext,
        State as __dk_State, String as __dk_String, Table as __dk_Table, Ttl as __dk_Ttl,
        Unversioned as __dk_Unversioned, UpdateCore as __dk_UpdateCore,
        UpdateMode as __dk_UpdateMode, UpdateParts as __dk_UpdateParts,
        UpdateTarget as __dk_UpdateTarget, Upsert as __dk_Upsert,
        VectorFilter as __dk_VectorFilter, VectorIndexMeta as __dk_VectorIndexMeta,
        VectorScope as __dk_VectorScope, VectorValue as __dk_VectorValue,
    };
}
