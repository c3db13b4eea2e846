//! The runtime half of dynakey: key formats, the item codec, entity
//! metadata, and the requests sent through `aws_sdk_dynamodb::Client`.
//!
//! Users depend on the `dynakey` facade, which re-exports this crate by
//! name together with the derive macros. Generated code names this crate's
//! public items by their public paths, and its helpers only through
//! [`__private`], which is not part of the API.
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! # use dynakey_derive::DynamoEntity;
//! # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
//! # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
//! # #[pk("USER#<user>")]
//! # #[sk("NOTE#<id:d6>")]
//! # struct Note { user: String, id: u32, text: String }
//! use dynakey_runtime::{Condition, Entity};
//! let backend = dynakey_runtime::local::memory().unwrap();
//! let db = backend.db("notes");
//! db.create_table(&[Note::META]).await.unwrap();
//! let mut tx = db.transact_write();
//! for id in 1..=3 {
//!     tx = tx.put_with(&Note { user: "ann".into(), id, text: "hi".into() }, |p| p.if_not_exists());
//! }
//! tx.await.unwrap();
//! let q = db.query(Note::pk("ann").unwrap()).filter(Condition::attr("text").eq("hi"));
//! assert_eq!(q.clone().limit(2).all().await.unwrap().len(), 2);
//! let page = q.page_size(2).page(None).await.unwrap();
//! assert_eq!((page.items.len(), page.is_last()), (2, false));
//! # });
//! ```
//!
//! ## Layers
//!
//! The top-level modules name each other in one direction only (no import
//! cycle, checked by `tests/layers.rs`), bottom to top:
//!
//! 1. plain values and the error: `number`, `cursor_key`, `codec`
//!    (attribute values, `Item`, `DecodeError`), `error` (with what it
//!    holds: a batch write's outcome, a change record's error and the
//!    values it names);
//! 2. the pure layers: `key` (formats, templates, typed keys), `entity`,
//!    `expr`, `size`, `union`, `explain`, `check`, `obs`, `retry`;
//! 3. the requests: `db` (the handle), `write` (what every write shares),
//!    `rules`, `update`, `query`, `ops`, `batch`, `transact`;
//! 4. the tools: `changes` (typed changes and the feed), `table`, `schema`,
//!    `design`, `local`, `fault`, `spy`, and `__private` (what generated
//!    code calls), which nothing below names.
//!
//! The guide (the naming table of the operations, the attributes, the
//! features) is written once, in the `dynakey` facade's documentation;
//! this crate's features are the same, forwarded by the facade.

// docs.rs builds with `--cfg docsrs` on nightly: each gated item's page
// says which feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod batch;
// Always present: the stream view a table asks for (`TableOptions::stream`,
// which derived code names) and the change error of `Error::Change`; the
// decoder and the sources need the feature `changes`.
pub mod changes;
mod check;
pub mod codec;
mod cursor_key;
mod db;
#[cfg(feature = "design")]
#[cfg_attr(docsrs, doc(cfg(feature = "design")))]
pub mod design;
pub mod entity;
pub mod error;
pub mod explain;
pub mod expr;
#[cfg(feature = "testing")]
#[cfg_attr(docsrs, doc(cfg(feature = "testing")))]
pub mod fault;
pub mod key;
#[cfg(feature = "local")]
#[cfg_attr(docsrs, doc(cfg(feature = "local")))]
pub mod local;
mod number;
pub mod obs;
mod ops;
pub mod query;
mod retry;
pub mod rules;
pub mod schema;
mod send;
mod shown;
mod size;
#[cfg(feature = "testing")]
#[cfg_attr(docsrs, doc(cfg(feature = "testing")))]
pub mod spy;
pub mod table;
mod transact;
mod union;
pub mod update;
pub mod vector;
mod write;

#[doc(hidden)]
pub mod __private;

pub use batch::{
    BatchFailure, BatchGet, BatchGetOutcome, BatchWrite, BatchWriteOutcome, Unversioned,
};
pub use codec::{
    Attr, AttrPath, DecodeError, DecodeErrorKind, Item, SetMember, Unwritable, MAX_NESTING,
};
pub use cursor_key::CursorKey;
pub use db::Db;
pub use entity::{
    Entity, EntityMeta, FieldForm, FieldMeta, IndexKey, IndexKind, IndexMeta, IndexProjection,
    KeyAttrType, KeyMeta, NativeAttr, NativeKey,
};
pub use error::{
    CancelReason, EncodeError, Error, ItemRef, KeyFormatError, KeyFormatReason, KeyRole,
    RefusedReason, Result, Throttle, ThrottleLimit, ThrottleReason, ThrottledAccess, ThrottledOn,
    ThrottledResource,
};
pub use explain::{Explain, WriteCost};
pub use expr::{CmpOp, Condition, RawExpr, Update};
pub use key::{
    uuid7, Global, GlobalPartial, Key, KeyDecimal, KeyKind, KeyPadded, KeyPartError, KeyReverse,
    KeySigned, KeyText, Local, LocalPartial, NativeKeyAttr, NativePrefix, PartitionKey,
    SortKeyCondition, SortKeyOp, Table, WholeItems,
};
pub use ops::{
    BoxFuture, Decoding, Delete, Get, GetProjected, PatchFuture, PatchItem, Put, UpdateItem,
};
pub use query::{
    AnyOf, ConsistentRead, Decoder, FanOut, Hydrated, KeysOnly, Page, Query, ReadFrom,
    ReadsThrough, Scan, Typed,
};
pub use retry::RetryPolicy;
pub use size::{item_size, MAX_ITEM_SIZE};
#[allow(deprecated)]
pub use transact::{
    TransactGet, TransactGetOutcome, TransactGetOutput, TransactWrite, MAX_ACTIONS,
};
pub use union::EntityUnion;
pub use update::{
    CheckedUpdate, CompleteUpdate, Field, IntoField, TypedUpdate, UpdateParts, UpdateTarget,
};
