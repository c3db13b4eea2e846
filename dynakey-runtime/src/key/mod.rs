//! Keys: the text formats of key parts, typed keys and sort-key conditions.
//!
//! Every format keeps *text order equal to value order*, so DynamoDB, which
//! orders a partition by the bytes of its sort keys, orders items by value.

mod builder;
pub(crate) mod chain;
pub(crate) mod cond;
pub(crate) mod formats;
mod parts;
mod reader;
mod template;
mod typed;
pub mod ulid;
pub mod uuid7;
mod writer;

pub use builder::KeyBuilder;
pub use chain::{CondResult, SortKeyFull, SortKeyNext, SortKeyTextNext};
pub use cond::{SortKeyCondition, SortKeyOp};
pub use formats::{KeyDecimal, KeyPadded, KeyPartError, KeyReverse, KeySigned, KeyText};
pub use parts::parts;
pub use reader::{parse, KeyReader};
pub use template::{escape_char, KeyTemplate, PartFormat, TemplatePart};
pub use typed::{
    Global, GlobalPartial, Key, KeyKind, Local, LocalPartial, PartitionKey, Table, WholeItems,
};
pub use writer::KeyWriter;

/// The highest character a key may hold; range conditions use it as an upper
/// bound ("everything that starts with this prefix"). Key values may not hold
/// it, so the bound is exact.
pub(crate) const HIGH: char = '\u{10FFFF}';
