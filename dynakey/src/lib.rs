//! # dynakey
//!
//! DynamoDB single-table design with key templates checked at compile time.
//!
//! ```
//! use dynakey::prelude::*;
//! use dynakey::SortKeyOp;
//!
//! #[derive(DynamoEntity, Debug, PartialEq)]
//! #[dynamo(entity = "EMPLOYEE")]
//! #[pk("ORG#<org>")]
//! #[sk("SITE#<country>#<city>#EMP#<number:d6>")]
//! struct Employee {
//!     org: String,
//!     country: String,
//!     city: String,
//!     number: u32,
//! }
//!
//! let key = Employee::key("acme", "CH", "Zurich", 42u32).unwrap();
//! assert_eq!(key.pk(), "ORG#acme");
//! assert_eq!(key.sk(), Some("SITE#CH#Zurich#EMP#000042"));
//!
//! // begins_with over any leading run of the template's fields.
//! let zurich = Employee::sk().country("CH").city("Zurich").begins_with().unwrap();
//! assert_eq!(zurich.op(), &SortKeyOp::BeginsWith("SITE#CH#Zurich#EMP#".into()));
//!
//! // Stored keys parse back into their fields.
//! let (country, city, number) = Employee::parse_sk("SITE#CH#Zurich#EMP#000042").unwrap();
//! assert_eq!((country.as_str(), city.as_str(), number), ("CH", "Zurich", 42));
//!
//! // The item holds the attributes, the discriminator and every key.
//! let e = Employee { org: "acme".into(), country: "CH".into(), city: "Zurich".into(), number: 42 };
//! let item = e.to_item().unwrap();
//! assert_eq!(item["_type"].as_s().unwrap(), "EMPLOYEE");
//! assert_eq!(Employee::from_item(&item).unwrap(), e);
//! ```
//!
//! ## The guide
//!
//! The guide is part of this documentation, one page per topic, every
//! example compiled and run by `cargo test --doc`: start with the
//! [tutorial](_guide::_01_tutorial), or see [the index](_guide).
//!
//! ## Attributes
//!
//! | attribute | meaning |
//! |---|---|
//! | `#[dynamo(entity = "X")]` | discriminator value (required) |
//! | `#[dynamo(discriminator_attr = "_type", pk_attr = "pk", sk_attr = "sk")]` | attribute names (these are the defaults) |
//! | `#[pk("USER#<user_id>")]` | partition key template (required) |
//! | `#[sk("GROUP#<group_id>")]` | sort key template (optional) |
//! | `#[gsi("GSI1", pk = "..", sk = "..", sparse, pk_attr = "gsi1pk", sk_attr = "gsi1sk")]` | global index |
//! | `#[lsi("LSI1", sk = "..", sk_attr = "lsi1sk")]` | local index (the table's partition key) |
//! | `projection = "KEYS_ONLY"`, `projection = "INCLUDE(title, status)"` in `#[gsi(..)]` / `#[lsi(..)]` | what the index holds (default `ALL`), honoured by `create_table`; reading the entity through such an index does not compile (DYNA402): read `.keys_only()` or `.hydrate()` (whole items, in index order) |
//! | `#[dynamo(crate = "path")]` | where the `dynakey` crate is (any derive; default `::dynakey`); `"dynakey_runtime"` for the runtime used without this crate, with its `derive` feature |
//! | field `#[dynamo(rename = "..")]` | the stored attribute name (two fields stored in one attribute do not compile: DYNA124) |
//! | field `#[dynamo(omit_empty)]` | an empty string or collection is not stored (and leaves a sparse index) |
//! | field `#[dynamo(skip)]` | not stored; `Default` when read |
//! | field `#[dynamo(serde)]` | stored through its `serde` impls (with `serde_dynamo`), for types without `Attr` |
//! | field `#[dynamo(ttl)]` | an `OffsetDateTime` stored as epoch seconds; `create_table` enables TTL on it |
//! | field `#[dynamo(version)]` | an integer for optimistic locking: every write checks and bumps it |
//! | field `#[dynamo(default)]`, `#[dynamo(default = "path::to::fn")]` | a missing attribute reads as the default (fields added later) |
//! | `DynamoValue` variant `#[dynamo(rename = "..")]` | the stored name of a unit variant |
//! | `DynamoTable`: `#[dynamo(entities(A, B, ..))]` | the entities of one table, checked against each other (DYNA301–307) |
//! | `DynamoTable`: `#[dynamo(stream = "NEW_AND_OLD_IMAGES")]` | the stream view the code consumes: in `Table::options()`, so `create_table_with`, the exports (`Table::cloudformation`, `Table::terraform`) and `verify_table_with` have it (DYNA307 for another value) |
//! | `DynamoTable`: `#[dynamo(overlap(A, B))]` | allow a sort-key prefix overlap of `A` and `B` (DYNA305: a cost, not a wrong result) |
//! | `DynamoTable`: `#[dynamo(schema = "path")]` | the schema snapshot (default `dynakey/<Table>.schema` in the crate) |
//! | `DynamoTable`: `#[dynamo(migrations = PATH)]` | a `const &[Migration]` covering changes that would strand stored items |
//! | field `#[dynamo(validate = path)]` | called as `path(&value) -> Result<(), impl Display>` (a `fn(&T)`, or `fn(&str)` for a `String`), run on the value before every put, and on the value an update or upsert sets (`Option` fields: on the inner value, when set); a refusal is [`Error::Invalid`] and nothing is sent |
//! | `#[dynamo(validate = path)]` on the entity | called as `path(&self) -> Result<(), impl Display>` before every put |
//! | field `#[dynamo(created_at)]` | `OffsetDateTime` or `Option<OffsetDateTime>`: the time the item was created; a put writes now unless the value holds one, an update or upsert writes it only when it creates the item (`if_not_exists`) |
//! | field `#[dynamo(updated_at)]` | `OffsetDateTime` or `Option<OffsetDateTime>`: the time of every put, update and upsert |
//! | field `#[dynamo(unique)]` | one item per value, held by a guard item written in the same transaction as the item ([`Error::Unique`] when taken) |
//! | field `#[dynamo(unique(scope = tenant))]` | one item per value in each value of another field (one email per tenant): the guard is keyed by scope and value |
//!
//! `#[derive(DynamoProjection)]` with `#[dynamo(of = Entity)]` on a struct
//! of some of the entity's fields (same names, same types or an `Option`
//! of them; otherwise DYNA119 or rustc's "no field") reads only those
//! attributes: `db.query(..).project::<P>()` (see
//! [`query::Projection`]).
//!
//! Validation, timestamps and unique values are the data rules: see
//! [`rules`] for what each write does, with a runnable example.
//!
//! Placeholders `<field>` take an optional format: `d<w>` (zero-padded
//! unsigned), `n<w>` (signed), `n<w>.<p>` (signed decimal), `rev` (reverse
//! timestamp), `path` (the last field's text as it is, delimiters included,
//! for subtree queries). Every format keeps text order equal to value order.
//!
//! ## Generated functions
//!
//! For the table and every index (`gsi1_…` for an index named `GSI1`):
//! `key(..)`, `pk(..)`, `sk()` (a chain of sort-key conditions:
//! fix leading fields in order, then `begins_with`, `eq`, `lt`, `le`, `gt`,
//! `ge`, `between`), `parse_pk`, `parse_sk`, and `gsi1_key(..)` (the
//! texts an item with these inputs gets in the index: its partition key and
//! its sort key if the index has one, as a `(String, Option<String>)`; an
//! index is queried through `gsi1_pk(..)`).
//!
//! Mistakes are compile errors with DYNA codes (see
//! [Diagnostics](_guide::_03_diagnostics)).
//!
//! ## One name per operation
//!
//! A write has one name and one builder shape on a [`Db`] and in a
//! [`TransactWrite`]: `db.put(&e).if_not_exists()` is
//! `tx.put_with(&e, |p| p.if_not_exists())`; `db.update(E::update(..))` is
//! `tx.update(..)`; `db.update_raw(key, u)` is `tx.update_raw(key, u)`;
//! `db.delete(key)` is `tx.delete(key)`; `tx.check(key, cond)` checks
//! without writing. The `_with` forms hand the `Db` builder ([`Put`],
//! [`UpdateItem`], [`Delete`]) to a closure.
//!
//! Reads ([`Query`], [`FanOut`], [`Scan`]) share one shape: `limit(n)` caps
//! the items returned in all, `page_size(n)` sizes each page (and each
//! request), and `all()`, `stream()`, `page(cursor)` and `count()` read.
//!
//! ## Features
//!
//! Without asking, a crate gets the keys, the codec, the requests and the
//! errors, and a `tracing` span per request; every tool is a feature of
//! its own, off by default, so a Lambda function that only puts and
//! queries compiles none of them (`default-features = false` drops the
//! spans too). On docs.rs every feature is on, and each item that needs
//! one says which; the guide's
//! [Backends and testing](_guide::_12_backends_and_testing#features) page
//! has the table of which tool needs which.
//!
//! - `tracing` (on by default): a `tracing` span per request with
//!   OpenTelemetry's DynamoDB attributes ([`obs`]); cheap when no subscriber
//!   listens.
//! - `local`: the embedded engine, `dynakey::local` (dynoxide on SQLite,
//!   in the process). Turn it on for tests only, so a release binary
//!   compiles no SQLite:
//!
//!   ```toml
//!   [dependencies]
//!   dynakey = "0.1"
//!
//!   [dev-dependencies]
//!   dynakey = { version = "0.1", features = ["local"] }
//!   ```
//! - `testing`: [`fault`], fault injection at the HTTP layer for testing
//!   retry paths and stale index reads, and [`spy`], a recorder of the
//!   requests a client sent.
//! - `design`: [`design`], the design views of a table (Markdown, HTML,
//!   text, NoSQL Workbench, the live view of stored items).
//! - `export`: [`table::export`], the table as CloudFormation and Terraform,
//!   and `db.verify_table(..)`, the live check of a deployed table.
//! - `migrate`: the schema runner, `db.migrate(..)` and `db.sync_table(..)`
//!   (declaring a [`schema::Migration`] and the schema snapshot need no
//!   feature).
//! - `changes`: typed change data, [`changes`] (the decoder, DynamoDB JSON,
//!   table exports to S3).
//! - `streams` (turns on `changes`): `db.changes(..)`, a consumer of a
//!   table's stream yielding typed changes, and typed changes from
//!   `aws-sdk-dynamodbstreams` records.
//! - `lambda` (turns on `changes`): typed changes from Lambda's DynamoDB and
//!   Kinesis events (`aws_lambda_events`).
//!
//! ## Reading, writing and updating
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! use dynakey::prelude::*;
//!
//! #[derive(DynamoValue, Debug, Clone, Copy, PartialEq)]
//! enum Status { Open, Closed }
//!
//! #[derive(DynamoEntity, Debug, Clone, PartialEq)]
//! #[dynamo(entity = "WORK_ITEM")]
//! #[pk("ITEM#<id>")]
//! #[sk("DATA")]
//! #[gsi("GSI1", pk = "OWNER#<owner>", sk = "<status>#<id>")]
//! struct WorkItem { id: String, owner: String, status: Status }
//!
//! let backend = dynakey::local::memory().unwrap();      // the embedded engine (feature `local`)
//! let db = backend.db("shop");
//! db.create_table(&[WorkItem::META]).await.unwrap();
//! db.put(&WorkItem { id: "w1".into(), owner: "ann".into(), status: Status::Open }).await.unwrap();
//!
//! // The id comes with the key, so closing sets only the status; the index
//! // sort key `<status>#<id>` is rewritten in the same request.
//! db.update(WorkItem::update("w1").set_status(Status::Closed)).await.unwrap();
//! // A patch only ever changes an item that exists (it carries
//! // `attribute_exists(pk)`): on a missing one it fails, creating nothing.
//! let missing = db.update(WorkItem::update("w9").set_status(Status::Open)).await;
//! assert!(matches!(missing, Err(dynakey::Error::ConditionFailed { .. })));
//!
//! let closed = db
//!     .query(WorkItem::gsi1_pk("ann").unwrap())
//!     .sk(WorkItem::gsi1_sk().status(Status::Closed).begins_with().unwrap())
//!     .all()
//!     .await
//!     .unwrap();
//! assert_eq!(closed.len(), 1);
//! let open = WorkItem::attrs().status.eq(Status::Open);
//! assert_eq!(db.query(WorkItem::gsi1_pk("ann").unwrap()).filter(open).count().await.unwrap(), 0);
//! # });
//! ```

// docs.rs builds with `--cfg docsrs` on nightly: each gated item's page
// says which feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

#[path = "guide/mod.rs"]
pub mod _guide;

pub use dynakey_derive::{DynamoEntity, DynamoProjection, DynamoTable, DynamoUnion, DynamoValue};

// One re-export list, the runtime's: every name at the root (the handle,
// the builders, entities, keys, conditions, errors) and the modules for the
// rest (`codec`, `key`, `expr`, `query`, `changes`, `local`, ...), each
// module behind the feature the runtime gates it with.
pub use dynakey_runtime::*;

/// Binary attribute values (`B`), re-exported from the AWS SDK.
pub use aws_sdk_dynamodb::primitives::Blob;

/// What most code needs in scope: `use dynakey::prelude::*;`.
///
/// The derives, [`Db`], and the traits whose methods entities, unions
/// and updates are used through ([`Entity`]: `to_item`, `from_item`,
/// `item_key`, `META`; [`EntityUnion`]; [`TypedUpdate`]; [`Projection`](query::Projection)).
/// Nothing in it has a name of std's prelude, so a glob import shadows
/// nothing: name [`Error`], [`Result`] and [`Condition`] by path
/// (`dynakey::Result`) or import them.
///
/// ```
/// use dynakey::prelude::*;
///
/// #[derive(DynamoEntity, Debug, PartialEq)]
/// #[dynamo(entity = "NOTE")]
/// #[pk("USER#<user>")]
/// #[sk("NOTE#<id:d6>")]
/// struct Note { user: String, id: u32 }
///
/// async fn newest(db: &Db) -> dynakey::Result<Vec<Note>> {
///     db.query(Note::pk("ann")?).descending().limit(10).all().await
/// }
/// let item = Note { user: "ann".into(), id: 1 }.to_item().unwrap();
/// assert_eq!(Note::from_item(&item).unwrap(), Note { user: "ann".into(), id: 1 });
/// // std's Result is untouched by the glob import.
/// let r: Result<u8, String> = Err("any error type".into());
/// assert!(r.is_err());
/// # let _ = newest;
/// ```
pub mod prelude {
    pub use crate::query::Projection;
    pub use crate::{
        Db, DynamoEntity, DynamoProjection, DynamoTable, DynamoUnion, DynamoValue, Entity,
        EntityUnion, TypedUpdate,
    };
}

/// What generated code names (`::dynakey::__private::...`): the runtime's
/// hidden items and the derive's hidden macros, which only this crate
/// depends on both of (the runtime does not depend on the derive). Not a
/// public API. Defined here, it shadows the runtime's module of the same
/// name from the glob above.
#[doc(hidden)]
pub mod __private {
    pub use dynakey_runtime::__private::*;

    /// One step of the checks across a table's (or union's) entities,
    /// which an entity's macro calls (see `DynamoTable`).
    pub use dynakey_derive::__table_step as table_step;
}
