//! # dynakey
//!
//! DynamoDB single-table design with key templates checked at compile time.
//!
//! ```
//! use dynakey::{DynamoEntity, Entity, SortKeyOp};
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
//! | field `#[dynamo(rename = "..", omit_empty, skip, serde, ttl)]` | field options |
//!
//! Placeholders `<field>` take an optional format: `d<w>` (zero-padded
//! unsigned), `n<w>` (signed), `n<w>.<p>` (signed decimal), `rev` (reverse
//! timestamp). Every format keeps text order equal to value order.
//!
//! ## Generated functions
//!
//! For the table and every index (`gsi1_…` for an index named `GSI1`):
//! `key(..)`, `pk(..)`, `sk()` (a chain of sort-key conditions:
//! fix leading fields in order, then `begins_with`, `eq`, `lt`, `le`, `gt`,
//! `ge`, `between`), `parse_pk`, `parse_sk`, and `gsi1_key(..)`.
//!
//! Mistakes are compile errors with DYNA codes (see the README).
//!
//! ## Reading, writing and updating
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! use dynakey::{DynamoEntity, DynamoValue, Entity};
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
//! let backend = dynakey::local::memory().unwrap();      // the embedded engine
//! let db = backend.db("shop");
//! db.create_table(&[WorkItem::META]).await.unwrap();
//! db.put(&WorkItem { id: "w1".into(), owner: "ann".into(), status: Status::Open }).await.unwrap();
//!
//! // The id comes with the key, so closing sets only the status; the index
//! // sort key `<status>#<id>` is rewritten in the same request.
//! db.update(WorkItem::update("w1").set_status(Status::Closed)).if_exists().await.unwrap();
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

pub use dynakey_derive::{DynamoEntity, DynamoTable, DynamoUnion, DynamoValue};
pub use dynakey_runtime::*;

/// Binary attribute values (`B`), re-exported from the AWS SDK.
pub use aws_sdk_dynamodb::primitives::Blob;

#[doc(hidden)]
pub use dynakey_runtime::__private;
