//! Data rules the derive declares and every write path applies:
//! validation (`#[dynamo(validate = path)]`), timestamps
//! (`#[dynamo(created_at)]`, `#[dynamo(updated_at)]`) and unique values
//! (`#[dynamo(unique)]`).
//!
//! **Validation.** A field's validator is called as `path(&value)` and
//! returns `Result<(), M>` with `M: Display`: a `fn(&T)` for a field of type
//! `T`, or what `&T` derefs to (`fn(&str)` for a `String`); for an
//! `Option<T>` field it sees the inner value, when there is one. The
//! entity's is called as `path(&entity)`. Every put runs
//! them (`db.put`, batch puts, transaction puts, moves), and a typed update
//! or upsert runs the field validators on each value it sets
//! (`set_<field>`, `set_<field>_if_not_exists`; an `increment_`/`add_`
//! computes its value in DynamoDB, out of reach). A refusal is
//! [`Error::Invalid`] naming the entity and the field, and nothing is sent.
//!
//! **Timestamps.** Fields of type `time::OffsetDateTime` or
//! `Option<time::OffsetDateTime>`, stored as RFC 3339 text like any instant:
//!
//! | write | `created_at` | `updated_at` |
//! |---|---|---|
//! | put (db, batch, transaction, move) | the value's, or now when it holds none (`None`, or [`UNSET`] for a plain field) | now |
//! | typed update / upsert (db, transaction) | `if_not_exists(created_at, now)`: set only when the item is created | now |
//!
//! A put writes a whole item: the stored `created_at` is the one the value
//! carries. A value read from the table carries its original time, so
//! read-modify-put keeps it; a fresh value put over an existing item starts
//! it again (use an upsert, which never touches an existing `created_at`).
//! An update that sets a timestamp itself keeps the value it sets. A
//! timestamp cannot feed a key (DYNA116), since the runtime writes it.
//! `db.update_raw` writes what it is given.
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! # use dynakey_derive::DynamoEntity;
//! use dynakey_runtime::{Entity, Error};
//! use time::OffsetDateTime;
//!
//! fn email(v: &str) -> Result<(), &'static str> {
//!     if v.contains('@') { Ok(()) } else { Err("an email needs an @") }
//! }
//!
//! #[derive(DynamoEntity, Debug, Clone, PartialEq)]
//! #[dynamo(crate = "dynakey_runtime", entity = "USER")]
//! #[pk("USER#<id>")]
//! struct User {
//!     id: String,
//!     #[dynamo(validate = email)]
//!     email: String,
//!     #[dynamo(created_at)]
//!     created: Option<OffsetDateTime>,
//!     #[dynamo(updated_at)]
//!     updated: Option<OffsetDateTime>,
//! }
//!
//! let backend = dynakey_runtime::local::memory().unwrap();
//! let db = backend.db("users");
//! db.create_table(&[User::META]).await.unwrap();
//! let ann = User { id: "ann".into(), email: "ann".into(), created: None, updated: None };
//! let err = db.put(&ann).await.unwrap_err();
//! assert!(matches!(err, Error::Invalid { entity: "User", field: Some("email"), .. }));
//!
//! db.put(&User { email: "ann@example.com".into(), ..ann }).await.unwrap();
//! let stored = db.get(User::key("ann").unwrap()).await.unwrap().unwrap();
//! let created = stored.created.unwrap();
//! assert_eq!(stored.updated, Some(created)); // both now, on creation
//! db.update(User::update("ann").set_email("a@example.com")).await.unwrap();
//! let after = db.get(User::key("ann").unwrap()).await.unwrap().unwrap();
//! assert_eq!(after.created, Some(created)); // kept
//! assert!(after.updated.unwrap() >= created);
//! # });
//! ```

pub mod unique;

use std::fmt::Display;

use aws_sdk_dynamodb::types::AttributeValue;
use time::OffsetDateTime;

use crate::codec::{Attr, Item};
use crate::entity::{Entity, EntityMeta};
use crate::error::Error;
use crate::expr::Update;

/// What a plain (not `Option`) `#[dynamo(created_at)]` field holds when the
/// caller leaves it to the runtime: the Unix epoch. A put of a value holding
/// it stores the time of the put instead.
pub const UNSET: OffsetDateTime = OffsetDateTime::UNIX_EPOCH;

fn instant(t: OffsetDateTime) -> AttributeValue {
    t.to_attr().unwrap_or(AttributeValue::Null(true))
}

/// Turns a field validator's refusal into [`Error::Invalid`] (generated
/// code calls the validator and hands its result here).
#[doc(hidden)]
pub fn check_field<M: Display>(
    entity: &'static str,
    field: &'static str,
    r: Result<(), M>,
) -> Result<(), Error> {
    r.map_err(|m| Error::Invalid {
        entity,
        field: Some(field),
        message: m.to_string(),
    })
}

/// Turns the entity validator's refusal into [`Error::Invalid`].
#[doc(hidden)]
pub fn check_entity<M: Display>(entity: &'static str, r: Result<(), M>) -> Result<(), Error> {
    r.map_err(|m| Error::Invalid {
        entity,
        field: None,
        message: m.to_string(),
    })
}

/// The item a put of `e` writes: validated, encoded, timestamped.
pub(crate) fn put_item<E: Entity>(e: &E) -> Result<Item, Error> {
    e.validate()?;
    let mut item = e.to_item()?;
    if E::META.created_at.is_some() || E::META.updated_at.is_some() {
        stamp_item(E::META, &mut item, OffsetDateTime::now_utc());
    }
    Ok(item)
}

/// Writes the timestamps of a put into `item` (see the module docs).
pub fn stamp_item(meta: &EntityMeta, item: &mut Item, now: OffsetDateTime) {
    let v = instant(now);
    if let Some(a) = meta.created_at {
        let unset = item.get(a).is_none_or(|x| *x == instant(UNSET));
        if unset {
            item.insert(a.to_owned(), v.clone());
        }
    }
    if let Some(a) = meta.updated_at {
        item.insert(a.to_owned(), v);
    }
}

/// Adds the timestamps of a typed update to `update`, unless it sets them
/// itself (see the module docs).
pub fn stamp_update(meta: &EntityMeta, mut update: Update, now: OffsetDateTime) -> Update {
    if let Some(a) = meta.created_at.filter(|a| !update.touches(a)) {
        update = update.set_if_not_exists(a, instant(now));
    }
    if let Some(a) = meta.updated_at.filter(|a| !update.touches(a)) {
        update = update.set_value(a, instant(now));
    }
    update
}
