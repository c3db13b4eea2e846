//! The runtime half of dynakey: key formats, the item codec, entity metadata
//! and (in later modules) the requests sent through `aws_sdk_dynamodb::Client`.
//!
//! Users depend on the `dynakey` facade, which re-exports this crate together
//! with the derive macros. Generated code reaches this crate only through
//! [`__private`].

pub mod batch;
pub mod client;
pub mod codec;
pub mod consistency;
mod cursor;
pub mod entity;
pub mod error;
pub mod expr;
pub mod fault;
pub mod key;
#[cfg(feature = "local")]
pub mod local;
mod number;
pub mod query;
pub mod size;
pub mod table;
#[doc(hidden)]
pub mod table_check;
pub mod transact;
pub mod union;
pub mod update;

#[doc(hidden)]
pub mod __private;

pub use batch::{
    BatchFailure, BatchGet, BatchGetOutcome, BatchWrite, BatchWriteOutcome, Unversioned,
};
pub use client::{Db, Delete, Get, Put, RetryPolicy, UpdateItem};
pub use codec::{Attr, AttrPath, DecodeError, Item, SetMember};
pub use entity::{Entity, EntityMeta, FieldMeta, IndexKind, IndexMeta, KeyMeta};
pub use error::{CancelReason, EncodeError, Error, ItemRef, KeyFormatError, KeyFormatReason};
pub use expr::{Condition, RawExpr, Update};
pub use key::{
    uuid7, Global, Key, KeyDecimal, KeyKind, KeyPadded, KeyPartError, KeyReverse, KeySigned,
    KeyText, Local, PartitionKey, SortKeyCondition, SortKeyOp, Table,
};
pub use number::number_problem;
pub use query::{AnyOf, ConsistentRead, Decoder, FanOut, KeysOnly, Page, Query, Scan, Typed};
pub use transact::{Slot, TransactGet, TransactGetOutput, TransactWrite};
pub use union::EntityUnion;
pub use update::{Field, IntoField, TypedUpdate, UpdateParts};
