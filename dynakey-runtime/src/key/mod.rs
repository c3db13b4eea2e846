//! Keys: the text formats of key parts, typed keys and sort-key conditions.
//!
//! Every format keeps *text order equal to value order*, so DynamoDB, which
//! orders a partition by the bytes of its sort keys, orders items by value.

mod attr;
mod builder;
pub(crate) mod chain;
pub(crate) mod cond;
pub mod form;
pub(crate) mod formats;
mod limit;
mod native;
pub(crate) mod native_attr;
mod native_chain;
mod parts;
mod reader;
mod template;
mod typed;
pub mod ulid;
pub mod uuid7;
mod writer;

pub use builder::{slot, slot_opt, KeyBuilder, Slot};
pub use chain::{CondResult, SortKeyFull, SortKeyNext, SortKeyTextNext};
pub use cond::{NativeRange, NativeSortOp, SortKeyCondition, SortKeyOp};
pub use form::KeyForm;
pub use formats::{KeyDecimal, KeyPadded, KeyPartError, KeyReverse, KeySigned, KeyText};
pub use limit::{check_key_size, KeyRole, MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES};
pub(crate) use native::native_error;
pub use native::{compare_key_values, NativeArg, NativeKeyAttr, NativePrefix};
#[doc(hidden)]
pub use native::{native_str, native_str_prefix};
pub use native_chain::{NativeKeyBuilder, NativeSortFull, NativeSortNext};
pub use parts::parts;
pub use reader::{parse, KeyReader};
pub(crate) use template::{check_raw, escape_into};
pub use template::{escape_char, KeyTemplate, PartFormat, TemplatePart};
pub(crate) use typed::PkValue;
pub use typed::{
    Global, GlobalPartial, Key, KeyKind, Local, LocalPartial, PartitionKey, Table, WholeItems,
};
pub use writer::KeyWriter;

/// The highest character a key may hold; range conditions use it as an upper
/// bound ("everything that starts with this prefix"). Key values may not hold
/// it, so the bound is exact.
pub(crate) const HIGH: char = '\u{10FFFF}';
