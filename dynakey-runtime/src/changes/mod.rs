//! Typed change streams: every insert, update, delete and expiry of a
//! table as a [`Change`] of a derived union (or of one entity), with the
//! fields that differ and the indexes the item entered or left.
//!
//! Every AWS source, one decoder ([`ChangeDecoder`]):
//!
//! - records of the DynamoDB Streams API (`aws-sdk-dynamodbstreams`,
//!   feature `streams`): `decode_stream_record`;
//! - Lambda's DynamoDB event (`aws_lambda_events`, feature `lambda`):
//!   `decode_lambda_record`, `decode_lambda_event`;
//! - Kinesis Data Streams for DynamoDB: a Kinesis record's data
//!   ([`ChangeDecoder::decode_kinesis_data`]) and Lambda's Kinesis event,
//!   base64 data and all (`decode_kinesis_record`, `decode_kinesis_event`,
//!   feature `lambda`); it delivers at least once and may reorder:
//!   [`dedupe_and_order`] drops duplicates and orders each item's changes;
//! - DynamoDB JSON (a `serde_json::Value` or text, always available):
//!   [`ChangeDecoder::decode_json`], [`ChangeDecoder::decode_json_str`],
//!   [`ChangeDecoder::decode_json_batch`] (a `GetRecords` response as the
//!   AWS CLI prints it, Lambda's DynamoDB or Kinesis event as JSON);
//! - table exports to S3 in DynamoDB JSON, full or incremental, line by
//!   line from any `BufRead` ([`ExportReader`]): items, typed items,
//!   change records or typed changes, a typed error per bad line, and
//!   [`ExportReader::load_into`] a table (the embedded engine, to inspect a
//!   production table on a laptop).
//!
//! Numbers are compared by value at DynamoDB's full precision
//! ([`compare_numbers`], [`same_value`]) and times read exactly from every
//! form AWS writes them in ([`ChangeRecord::created_at`]).
//!
//! Each becomes a [`ChangeRecord`] first, and [`ChangeDecoder::decode`]
//! reads that. With the `streams` feature, `db.changes(decoder)` (a
//! `ChangeFeed`) follows a table's stream through the Streams API, and
//! [`TableOptions::stream`](crate::table::TableOptions::stream) has
//! `create_table_with` enable the stream.
//!
//! What a change says:
//!
//! - [`ChangeKind::Inserted`], [`ChangeKind::Modified`] (with `changed`,
//!   the fields whose stored value differs), [`ChangeKind::Removed`], and
//!   [`ChangeKind::Expired`] when TTL removed the item (the record's
//!   `userIdentity` is DynamoDB's service);
//! - [`Change::indexes`]: for each index the item entered, left or moved
//!   in, computed from the images' index key attributes (an item is in an
//!   index while all its index key attributes exist);
//! - an item of an unknown type is [`ChangeKind::Unknown`] with the raw
//!   images, or an error with [`ChangeDecoder::strict`];
//! - a record without an image the change needs (a `KEYS_ONLY`,
//!   `NEW_IMAGE` or `OLD_IMAGE` stream) is [`ChangeError::MissingImage`],
//!   or [`ChangeKind::Partial`] with [`ChangeDecoder::allow_partial`].
//!
//! ```
//! # use dynakey_derive::{DynamoEntity, DynamoUnion};
//! # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
//! # #[dynamo(crate = "dynakey_runtime", entity = "TASK", discriminator_attr = "entity")]
//! # #[pk("ORG#<org>")]
//! # #[sk("TASK#<id>")]
//! # #[gsi("GSI1", pk = "FLAGGED#<org>", sk = "<flagged_by>#<id>", sparse)]
//! # struct Task { org: String, id: String, title: String, flagged_by: Option<String> }
//! # #[derive(DynamoUnion, Debug, Clone, PartialEq)]
//! # #[dynamo(crate = "dynakey_runtime")]
//! # enum OrgItem { Task(Task) }
//! use dynakey_runtime::changes::{ChangeDecoder, ChangeKind, ChangeRecord, Operation};
//! use dynakey_runtime::Entity;
//! let before = Task { org: "acme".into(), id: "t1".into(), title: "a".into(), flagged_by: Some("ann".into()) };
//! let after = Task { flagged_by: None, ..before.clone() };
//! let record = ChangeRecord::new(Operation::Modify, before.item_key().unwrap().to_attributes())
//!     .with_old(before.to_item().unwrap())
//!     .with_new(after.to_item().unwrap());
//! let change = ChangeDecoder::<OrgItem>::union().decode(&record).unwrap();
//! assert!(change.left("GSI1"));                     // unflagged: out of the sparse index
//! let ChangeKind::Modified { changed, .. } = &change.kind else { panic!() };
//! assert_eq!(changed, &["flagged_by"]);
//! ```

// The decoder and every source need the feature `changes` (which `streams`
// and `lambda` turn on); without it this module holds only what the rest
// of the crate names: the stream view a table asks for and the change
// error of `Error::Change`, both in `error::change`. Comparing numbers by
// value serves the design views and the schema runner too.
#[cfg(feature = "changes")]
mod change;
#[cfg(feature = "changes")]
mod checkpoint;
#[cfg(feature = "changes")]
mod decoder;
#[cfg(feature = "changes")]
mod diff;
#[cfg(feature = "changes")]
mod dynamo_json;
#[cfg(feature = "changes")]
mod export;
#[cfg(feature = "changes")]
mod export_load;
#[cfg(feature = "changes")]
mod json;
#[cfg(feature = "changes")]
mod kinesis;
#[cfg(feature = "changes")]
mod order;
#[cfg(feature = "changes")]
mod record;
#[cfg(feature = "changes")]
mod time;
#[cfg(any(feature = "changes", feature = "design", feature = "migrate"))]
mod value;

// The public items of these gated modules carry the gate again, with its
// `doc(cfg)`: rustdoc shows a badge for a cfg on the item itself, also
// where the facade re-exports it (docs.rs passes `--cfg docsrs` to rustdoc
// only, so this crate's `doc(cfg)` is not in the facade's view of it).
#[cfg(feature = "streams")]
pub(crate) mod client;
#[cfg(feature = "streams")]
mod feed;
#[cfg(feature = "streams")]
mod streams_api;

#[cfg(feature = "lambda")]
mod lambda;

pub use crate::error::change::{ChangeError, Image, Operation, StreamView};

#[cfg(feature = "changes")]
#[cfg_attr(docsrs, doc(cfg(feature = "changes")))]
pub use change::{Change, ChangeKind, IndexChange, IndexTransition, Lacks};
#[cfg(feature = "changes")]
#[cfg_attr(docsrs, doc(cfg(feature = "changes")))]
pub use checkpoint::Checkpoint;
#[cfg(feature = "changes")]
#[cfg_attr(docsrs, doc(cfg(feature = "changes")))]
pub use decoder::ChangeDecoder;
#[cfg(feature = "changes")]
#[cfg_attr(docsrs, doc(cfg(feature = "changes")))]
pub use export::{ExportError, ExportErrorKind, ExportReader};
#[cfg(feature = "changes")]
#[cfg_attr(docsrs, doc(cfg(feature = "changes")))]
pub use export_load::ExportLoad;
#[cfg(feature = "changes")]
#[cfg_attr(docsrs, doc(cfg(feature = "changes")))]
pub use json::{item_from_json, item_to_json, record_from_json};
#[cfg(feature = "changes")]
#[cfg_attr(docsrs, doc(cfg(feature = "changes")))]
pub use kinesis::record_from_kinesis_data;
#[cfg(feature = "changes")]
#[cfg_attr(docsrs, doc(cfg(feature = "changes")))]
pub use order::dedupe_and_order;
#[cfg(feature = "changes")]
#[cfg_attr(docsrs, doc(cfg(feature = "changes")))]
pub use record::{is_ttl_identity, table_of_stream_arn, ChangeRecord};
#[cfg(feature = "design")]
pub(crate) use value::same_opt;
#[cfg(all(feature = "migrate", not(feature = "changes")))]
pub(crate) use value::same_value;
#[cfg(feature = "changes")]
#[cfg_attr(docsrs, doc(cfg(feature = "changes")))]
pub use value::{compare_numbers, same_value};

#[cfg(feature = "streams")]
pub use feed::ChangeFeed;
#[cfg(feature = "streams")]
pub use streams_api::{from_stream_item, from_stream_value, record_from_stream};

#[cfg(feature = "lambda")]
pub use kinesis::record_from_kinesis;
#[cfg(feature = "lambda")]
pub use lambda::record_from_lambda;
