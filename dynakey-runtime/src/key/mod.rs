//! Keys: the text formats of key parts, typed keys and sort-key conditions.
//!
//! Every format keeps *text order equal to value order*, so DynamoDB, which
//! orders a partition by the bytes of its sort keys, orders items by value.

mod attr;
pub(crate) mod chain;
pub(crate) mod cond;
pub(crate) mod formats;
mod limit;
pub(crate) mod native;
pub(crate) mod native_attr;
mod native_chain;
mod reader;
mod template;
mod typed;
pub mod ulid;
pub mod uuid7;
mod writer;

pub use chain::{CondResult, SortKeyFull, SortKeyNext, SortKeyTextNext};
pub use cond::{NativeRange, NativeSortOp, SortKeyCondition, SortKeyOp};
pub use dynakey_core::template::parts;
pub use formats::{KeyDecimal, KeyPadded, KeyPartError, KeyReverse, KeySigned, KeyText};
pub use limit::{check_key_size, KeyRole, MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES};
pub(crate) use native::native_error;
pub use native::{compare_key_values, NativeArg, NativeKeyAttr, NativePrefix};
#[doc(hidden)]
pub use native::{native_str, native_str_prefix};
pub use native_chain::{NativeKeyBuilder, NativeSortFull, NativeSortNext};
pub use reader::{parse, KeyReader};
#[cfg(feature = "export")]
pub(crate) use template::check_raw;
pub use template::{escape_char, KeyTemplate, PartFormat, TemplatePart};
pub(crate) use typed::PkValue;
pub use typed::{
    Global, GlobalPartial, Key, KeyKind, Local, LocalPartial, PartitionKey, Table, WholeItems,
};
pub use writer::{slot, slot_opt, KeyForm, KeyWriter, Slot};

/// How a field of type `T` is written into a key and read back: one
/// [`KeyForm`] per format.
///
/// One function per format ([`text`](form::text), [`padded`](form::padded),
/// [`signed`](form::signed), [`decimal`](form::decimal),
/// [`reverse`](form::reverse)) gives a field's form. Derived code reaches them through
/// the format traits (`<u32 as KeyPadded>::padded_form()`), wherever the
/// field is written (key functions, `to_item`, typed updates, sort-key
/// chains) or read (`parse_*`): a field type without the format's trait
/// then fails the same trait, at the same span, in every place, and rustc
/// reports identical errors once: one mistake, one error (DYNA102,
/// DYNA107), not one per place that writes the key. Through the trait, not
/// through the bounded function, because rustc adds to an unmet bound of a
/// function a note redrawing where the bound was declared.
pub mod form {
    pub use super::writer::{decimal, padded, reverse, signed, text, KeyForm, ReadFn, WriteFn};
}

/// The highest character a key may hold; range conditions use it as an upper
/// bound ("everything that starts with this prefix"). Key values may not hold
/// it, so the bound is exact.
pub(crate) use dynakey_core::template::HIGH;
