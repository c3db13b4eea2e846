//! The runtime half of dynakey: key formats, the item codec, entity
//! metadata, and the requests sent through `aws_sdk_dynamodb::Client`.
//!
//! Users depend on the `dynakey` facade, which re-exports this crate by
//! name together with the derive macros. Generated code reaches this crate
//! only through [`__private`].
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
//! ## Naming
//!
//! Every write has one name and one builder shape, on a [`Db`] and in a
//! [`TransactWrite`]:
//!
//! | | [`Db`] | [`TransactWrite`] |
//! |---|---|---|
//! | put | `db.put(&e)` → [`Put`] | `tx.put(&e)`, `tx.put_with(&e, \|p\| p.if_not_exists())` |
//! | typed update | `db.update(E::update(..))` → [`UpdateItem`] | `tx.update(..)`, `tx.update_with(.., \|u\| u.condition(c))` |
//! | raw update | `db.update_raw(key, Update)` → [`UpdateItem`] | `tx.update_raw(key, u)`, `tx.update_raw_with(key, u, \|u\| ..)` |
//! | delete | `db.delete(key)` → [`Delete`] | `tx.delete(key)`, `tx.delete_with(key, \|d\| d.if_exists())` |
//! | condition check | — | `tx.check(key, cond)` |
//!
//! Reads share one shape too ([`Query`], [`FanOut`], [`Scan`]): `limit(n)`
//! caps the items returned in all, `page_size(n)` sizes each page (and each
//! request), and `all()`, `stream()`, `page(cursor)`, `count()` read them.
//!
//! ## Features
//!
//! - `local`: the embedded engine (`local`: dynoxide on SQLite). Off by
//!   default so that production builds compile no SQLite; tests turn it on.
//! - `tracing` (default): a `tracing` span per request with
//!   OpenTelemetry's DynamoDB attributes; see [`obs`].
//! - `testing`: fault injection at the HTTP layer (`fault`), for testing
//!   retry paths and stale index reads, and the request recorder (`spy`).
//! - `streams`: the change feed (`db.changes(..)`) and typed changes from
//!   Streams API records (`aws-sdk-dynamodbstreams`); see [`changes`].
//! - `lambda`: typed changes from Lambda's DynamoDB event
//!   (`aws_lambda_events`).

mod batch;
pub mod changes;
mod check;
pub mod codec;
mod db;
pub mod design;
pub mod entity;
pub mod error;
pub mod explain;
pub mod expr;
#[cfg(feature = "testing")]
pub mod fault;
pub mod key;
#[cfg(feature = "local")]
pub mod local;
mod number;
pub mod obs;
pub mod ops;
pub mod query;
mod retry;
pub mod rules;
pub mod schema;
mod size;
#[cfg(feature = "testing")]
pub mod spy;
pub mod table;
mod transact;
mod union;
pub mod update;

#[doc(hidden)]
pub mod __private;

pub use batch::{
    BatchFailure, BatchGet, BatchGetOutcome, BatchWrite, BatchWriteOutcome, Unversioned,
};
pub use codec::{Attr, AttrPath, DecodeError, Item, SetMember};
pub use db::Db;
pub use entity::{Entity, EntityMeta, FieldMeta, IndexKind, IndexMeta, IndexProjection, KeyMeta};
pub use error::{
    CancelReason, EncodeError, Error, ItemRef, KeyFormatError, KeyFormatReason, Result,
};
pub use explain::{Explain, WriteCost};
pub use expr::{CmpOp, Condition, RawExpr, Update};
pub use key::{
    uuid7, Global, GlobalPartial, Key, KeyDecimal, KeyKind, KeyPadded, KeyPartError, KeyReverse,
    KeySigned, KeyText, Local, LocalPartial, PartitionKey, SortKeyCondition, SortKeyOp, Table,
    WholeItems,
};
pub use ops::{Delete, Get, Put, UpdateItem};
pub use query::{
    AnyOf, ConsistentRead, Decoder, FanOut, Hydrated, KeysOnly, Page, Query, ReadFrom, Scan, Typed,
};
pub use retry::RetryPolicy;
pub use transact::{Slot, TransactGet, TransactGetOutput, TransactWrite, MAX_ACTIONS};
pub use union::EntityUnion;
pub use update::{Field, IntoField, TypedUpdate, UpdateParts};
