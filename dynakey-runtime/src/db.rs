//! The table handle: a client and a table name, and the single-item
//! operations it starts. Every request goes through
//! `aws_sdk_dynamodb::Client`, so any client works: real DynamoDB, the
//! embedded engine, any endpoint.

use std::marker::PhantomData;
use std::sync::Arc;

use aws_sdk_dynamodb::types::ReturnConsumedCapacity;
use aws_sdk_dynamodb::Client;

use crate::entity::{Entity, EntityMeta};
use crate::error::Error;
use crate::expr::Update;
use crate::key::Key;
use crate::ops::{Delete, Get, Put, UpdateItem, WriteOpts};
use crate::retry::RetryPolicy;
use crate::update::TypedUpdate;

/// A table: a client and a table name. Cheap to clone.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>", sparse)]
/// # struct Note { user: String, id: u32, tag: Option<String>, text: String }
/// use dynakey_runtime::{Db, Entity};
/// let backend = dynakey_runtime::local::memory().unwrap();
/// let db = Db::new(backend.client().clone(), "notes");
/// db.create_table(&[Note::META]).await.unwrap();
/// let n = Note { user: "ann".into(), id: 1, tag: None, text: "hi".into() };
/// db.put(&n).if_not_exists().await.unwrap();
/// assert_eq!(db.get(Note::key("ann", 1).unwrap()).await.unwrap(), Some(n));
/// # });
/// ```
#[derive(Debug, Clone)]
pub struct Db {
    pub(crate) client: Client,
    pub(crate) table: Arc<str>,
    pub(crate) retry: RetryPolicy,
    pub(crate) capacity: ReturnConsumedCapacity,
}

impl Db {
    /// A handle on table `table` through `client`.
    ///
    /// ```
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let db = dynakey_runtime::Db::new(backend.client().clone(), "shop");
    /// assert_eq!(db.table_name(), "shop");
    /// ```
    pub fn new(client: Client, table: impl Into<String>) -> Self {
        Self {
            client,
            table: Arc::from(table.into()),
            retry: RetryPolicy::default(),
            capacity: ReturnConsumedCapacity::Total,
        }
    }

    /// The same table asking for another `ReturnConsumedCapacity` on every
    /// request: `TOTAL` by default (the span field
    /// `aws.dynamodb.consumed_capacity`), `INDEXES` for the table's and each
    /// index's share, `NONE` to ask nothing.
    ///
    /// ```
    /// use aws_sdk_dynamodb::types::ReturnConsumedCapacity;
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let db = backend.db("shop").with_capacity(ReturnConsumedCapacity::Indexes);
    /// assert_eq!(db.capacity(), &ReturnConsumedCapacity::Indexes);
    /// ```
    pub fn with_capacity(mut self, capacity: ReturnConsumedCapacity) -> Self {
        self.capacity = capacity;
        self
    }

    /// The `ReturnConsumedCapacity` every request asks for.
    ///
    /// ```
    /// use aws_sdk_dynamodb::types::ReturnConsumedCapacity;
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// assert_eq!(backend.db("shop").capacity(), &ReturnConsumedCapacity::Total);
    /// ```
    pub fn capacity(&self) -> &ReturnConsumedCapacity {
        &self.capacity
    }

    /// The same table with another batch retry policy.
    ///
    /// ```
    /// use dynakey_runtime::RetryPolicy;
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let quick = RetryPolicy { max_attempts: 2, ..RetryPolicy::default() };
    /// let db = backend.db("shop").with_retry(quick);
    /// assert_eq!(db.retry_policy().max_attempts, 2);
    /// ```
    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// The client.
    ///
    /// ```
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let db = backend.db("shop");
    /// assert!(db.client().config().region().is_some());
    /// ```
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The table name.
    ///
    /// ```
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// assert_eq!(backend.db("shop").table_name(), "shop");
    /// ```
    pub fn table_name(&self) -> &str {
        &self.table
    }

    /// The batch retry policy.
    ///
    /// ```
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// assert_eq!(backend.db("shop").retry_policy(), dynakey_runtime::RetryPolicy::default());
    /// ```
    pub fn retry_policy(&self) -> RetryPolicy {
        self.retry
    }

    /// Creates the table for these entities; see [`crate::table::create_table`].
    pub async fn create_table(&self, metas: &[&EntityMeta]) -> Result<(), Error> {
        crate::table::create_table(&self.client, &self.table, metas).await
    }

    /// How many attempts the SDK makes per request (for [`Error::Throttled`]).
    pub(crate) fn sdk_attempts(&self) -> u32 {
        self.client
            .config()
            .retry_config()
            .map_or(3, |r| r.max_attempts())
    }

    /// Writes `e` (replacing an item with the same key); see [`Put`].
    pub fn put<E: Entity>(&self, e: &E) -> Put<E> {
        Put {
            db: self.clone(),
            built: crate::rules::put_item(e),
            opts: WriteOpts::default(),
            _e: PhantomData,
        }
    }

    /// Reads the item at `key`; see [`Get`].
    pub fn get<E: Entity>(&self, key: Key<E>) -> Get<E> {
        Get {
            db: self.clone(),
            key,
            consistent: false,
        }
    }

    /// Deletes the item at `key` (no error when it is absent, unless a
    /// condition says so); see [`Delete`].
    pub fn delete<E: Entity>(&self, key: Key<E>) -> Delete<E> {
        Delete {
            db: self.clone(),
            key,
            opts: WriteOpts::default(),
        }
    }

    /// Sends a typed update built by the derive, e.g.
    /// `db.update(WorkItem::update(id).set_status(WorkStatus::Closed))`.
    /// It rewrites (or, for a sparse index, removes) every index key whose
    /// inputs it sets; an update that sets only some inputs of a key does
    /// not compile (DYNA226). See [`UpdateItem`].
    pub fn update<U: TypedUpdate>(&self, update: U) -> UpdateItem<U::Entity> {
        let (built, cond) = match update.into_parts() {
            Ok(parts) => {
                let now = time::OffsetDateTime::now_utc();
                let update = crate::rules::stamp_update(U::Entity::META, parts.update, now);
                (Ok((parts.key, update)), parts.condition)
            }
            Err(e) => (Err(e), None),
        };
        UpdateItem {
            db: self.clone(),
            built,
            opts: WriteOpts {
                cond,
                ..WriteOpts::default()
            },
        }
    }

    /// Updates the item at `key` with a hand-built [`Update`]. It does not
    /// keep index keys in step: prefer [`Db::update`] with the derive's
    /// `E::update(..)`, which rewrites every index key its inputs feed.
    pub fn update_raw<E: Entity>(&self, key: Key<E>, update: Update) -> UpdateItem<E> {
        UpdateItem {
            db: self.clone(),
            built: Ok((key, update)),
            opts: WriteOpts::default(),
        }
    }
}
