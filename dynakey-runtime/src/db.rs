//! The table handle: a client and a table name, and the single-item
//! operations it starts. Every request goes through
//! `aws_sdk_dynamodb::Client`, so any client works: real DynamoDB, the
//! embedded engine, any endpoint.

use std::sync::Arc;

use aws_sdk_dynamodb::types::ReturnConsumedCapacity;
use aws_sdk_dynamodb::Client;

use crate::cursor_key::CursorKey;
use crate::retry::RetryPolicy;

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
#[must_use]
pub struct Db {
    pub(crate) client: Client,
    pub(crate) table: Arc<str>,
    pub(crate) retry: RetryPolicy,
    pub(crate) capacity: ReturnConsumedCapacity,
    pub(crate) cursor_key: CursorKey,
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
            cursor_key: CursorKey::process(),
        }
    }

    /// The same table with page cursors authenticated under `key`: set the
    /// same key on every instance of a service whose instances take each
    /// other's cursors. By default every `Db` of a process shares a random
    /// key, so a cursor is refused by another process (see
    /// [`CursorKey`]).
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # struct Note { user: String, id: u32 }
    /// use dynakey_runtime::{query::CursorKey, Entity, Error};
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let shared = CursorKey::new([7u8; 32]).unwrap();
    /// let one = backend.db("notes").with_cursor_key(shared.clone());
    /// one.create_table(&[Note::META]).await.unwrap();
    /// for id in 1..=3 {
    ///     one.put(&Note { user: "ann".into(), id }).await.unwrap();
    /// }
    /// let page = one.query(Note::pk("ann").unwrap()).page_size(2).page(None).await.unwrap();
    /// // Another instance with the same key resumes it.
    /// let two = backend.db("notes").with_cursor_key(shared);
    /// let rest = two.query(Note::pk("ann").unwrap()).page_size(2).page(page.cursor.as_deref()).await.unwrap();
    /// assert_eq!(rest.items[0].id, 3);
    /// // One under another key refuses it, before sending anything.
    /// let other = backend.db("notes").with_cursor_key(CursorKey::random());
    /// let err = other.query(Note::pk("ann").unwrap()).page_size(2).page(page.cursor.as_deref()).await;
    /// assert!(matches!(err, Err(Error::Refused { .. })));
    /// # });
    /// ```
    pub fn with_cursor_key(mut self, key: CursorKey) -> Self {
        self.cursor_key = key;
        self
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
}
