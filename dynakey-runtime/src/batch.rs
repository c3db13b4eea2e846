//! Batch write (chunks of 25) and batch get (chunks of 100), retrying what
//! DynamoDB leaves unprocessed (and throttled calls) with bounded, jittered
//! exponential backoff, and handing back whatever is still unprocessed:
//! nothing is dropped.

use std::fmt;
use std::marker::PhantomData;

use aws_sdk_dynamodb::operation::batch_write_item::builders::BatchWriteItemInputBuilder;
use aws_sdk_dynamodb::operation::batch_write_item::BatchWriteItemInput;
use aws_sdk_dynamodb::types::{DeleteRequest, PutRequest, WriteRequest};
use futures_util::StreamExt;

use crate::check::check_item;
use crate::db::Db;
use crate::entity::Entity;
use crate::error::{clone_built, is_throttling_code, Error, Throttle};
use crate::explain::{Explain, WriteCost};
use crate::key::Key;
use crate::obs::Span;
use crate::ops::into_future;
use crate::send::{self, To};
use crate::write::build_err;

pub use crate::error::batch::{BatchFailure, BatchWriteOutcome};

mod get;
pub use get::{BatchGet, BatchGetOutcome};

/// Calls run at once per batch operation.
const CONCURRENCY: usize = 4;

/// The throttle reasons of a retried call's error (none for a 5xx): kept
/// so that a chunk whose retries run out while throttled says why.
fn throttles_of_retry<E, R>(e: aws_sdk_dynamodb::error::SdkError<E, R>) -> Vec<Throttle>
where
    E: aws_sdk_dynamodb::error::ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
    R: fmt::Debug + Send + Sync + 'static,
{
    Error::from_sdk(e, 1).throttles().to_vec()
}

/// Whether an SDK error is worth retrying (throttling, a 5xx).
fn retryable<E: aws_sdk_dynamodb::error::ProvideErrorMetadata, R>(
    e: &aws_sdk_dynamodb::error::SdkError<E, R>,
) -> bool {
    match e.as_service_error() {
        Some(se) => se.code().is_some_and(|c| {
            is_throttling_code(c) || c == "InternalServerError" || c == "ServiceUnavailable"
        }),
        None => false,
    }
}

/// A batch of puts and deletes, possibly of several entity types. Build it
/// with [`Db::batch_write`].
///
/// Chunks run concurrently and in no particular order, so one batch should
/// not write the same key twice (DynamoDB refuses that inside a chunk).
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
/// use dynakey_runtime::Entity;
/// let local = dynakey_runtime::local::memory().unwrap();
/// let db = local.db("notes");
/// db.create_table(&[Note::META]).await.unwrap();
/// let mut batch = db.batch_write();
/// for id in 0..60 {
///     batch = batch.put(&Note { user: "ann".into(), id, tag: None, text: String::new() });
/// }
/// let out = batch.delete(Note::key("ann", 99).unwrap()).await.unwrap();
/// assert!(out.unprocessed.is_empty());
/// assert_eq!(out.written, 61);
/// assert_eq!(db.query(Note::pk("ann").unwrap()).count().await.unwrap(), 60);
/// # });
/// ```
#[must_use = "a batch does nothing until sent"]
pub struct BatchWrite {
    db: Db,
    /// The requests so far, or the first error found while adding one.
    built: Result<Vec<WriteRequest>, Error>,
    /// The estimated cost of each typed request (raw ones have none).
    costs: Vec<WriteCost>,
}

impl Clone for BatchWrite {
    fn clone(&self) -> Self {
        BatchWrite {
            db: self.db.clone(),
            built: clone_built(&self.built),
            costs: self.costs.clone(),
        }
    }
}

impl fmt::Debug for BatchWrite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BatchWrite")
            .field("table", &self.db.table)
            .field("requests", &self.built.as_ref().map(Vec::len))
            .finish()
    }
}

/// Entities a batch write can put: those without a `#[dynamo(version)]`
/// field. A batch write takes no condition, so it could neither check a
/// version nor keep one; put a versioned entity with `db.put(..)` or in a
/// transaction.
#[diagnostic::on_unimplemented(
    message = "DYNA229: `{Self}` has a #[dynamo(version)] field, and a batch write cannot check versions",
    label = "a versioned entity in a batch put",
    note = "a batch write takes no condition, so it would overwrite newer versions; put it with `db.put(..)` or in `db.transact_write()`, which check the version"
)]
pub trait Unversioned: Entity {}

impl Db {
    /// An empty batch write.
    pub fn batch_write(&self) -> BatchWrite {
        BatchWrite {
            db: self.clone(),
            built: Ok(Vec::new()),
            costs: Vec::new(),
        }
    }

    /// A batch get of `keys` (duplicates are read once).
    pub fn batch_get<E: Entity>(&self, keys: impl IntoIterator<Item = Key<E>>) -> BatchGet<E> {
        BatchGet {
            db: self.clone(),
            keys: keys.into_iter().collect(),
            consistent: false,
            _e: PhantomData,
        }
    }
}

impl BatchWrite {
    /// Puts `e` (an entity without a version field: DYNA229). An encoding
    /// error (or an item over 400 KB) is reported by [`BatchWrite::send`]
    /// before anything is sent.
    pub fn put<E: Unversioned>(mut self, e: &E) -> Self {
        let req = crate::rules::unique::refuse_in::<E>("a batch write")
            .and_then(|()| crate::rules::put_item(e))
            .and_then(|item| {
                check_item(E::META, &item)?;
                self.costs.push(WriteCost::put(E::META, &item));
                let p = PutRequest::builder()
                    .set_item(Some(item))
                    .build()
                    .map_err(build_err)?;
                Ok(WriteRequest::builder().put_request(p).build())
            });
        self.add(req);
        self
    }

    /// Deletes the item at `key`.
    pub fn delete<E: Entity>(mut self, key: Key<E>) -> Self {
        self.costs.push(WriteCost::delete(E::META));
        let req = crate::rules::unique::refuse_in::<E>("a batch write").and_then(|()| {
            DeleteRequest::builder()
                .set_key(Some(key.to_attributes()))
                .build()
                .map_err(build_err)
                .map(|d| WriteRequest::builder().delete_request(d).build())
        });
        self.add(req);
        self
    }

    /// Adds raw requests, e.g. the unprocessed ones of an earlier batch.
    /// They are sent as they are, unchecked.
    pub fn requests(mut self, requests: impl IntoIterator<Item = WriteRequest>) -> Self {
        if let Ok(v) = &mut self.built {
            v.extend(requests);
        }
        self
    }

    /// Adds a request, or keeps the first error found while building one.
    fn add(&mut self, req: Result<WriteRequest, Error>) {
        if let Ok(v) = &mut self.built {
            match req {
                Ok(r) => v.push(r),
                Err(e) => self.built = Err(e),
            }
        }
    }

    /// How many requests the batch holds (none once one failed to build).
    pub fn len(&self) -> usize {
        self.built.as_ref().map_or(0, Vec::len)
    }

    /// Whether the batch holds no request.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The SDK inputs of the batch, one per chunk of 25, without sending
    /// them.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>", sparse)]
    /// # struct Note { user: String, id: u32, tag: Option<String>, text: String }
    /// use dynakey_runtime::Entity;
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let db = backend.db("notes");
    /// let batch = (0..30).fold(db.batch_write(), |b, id| b.delete(Note::key("ann", id).unwrap()));
    /// let inputs = batch.to_input().unwrap();
    /// assert_eq!(inputs.len(), 2);
    /// ```
    pub fn to_input(&self) -> Result<Vec<BatchWriteItemInput>, Error> {
        clone_built(&self.built)?
            .chunks(25)
            .map(|c| write_input(&self.db, c.to_vec()).build().map_err(build_err))
            .collect()
    }

    /// The batch in readable form: every request, and the estimated cost
    /// of the typed ones (a batch write costs what its puts and deletes
    /// cost one by one).
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>", sparse)]
    /// # struct Note { user: String, id: u32, tag: Option<String>, text: String }
    /// use dynakey_runtime::Entity;
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let db = backend.db("notes");
    /// let n = Note { user: "ann".into(), id: 1, tag: Some("red".into()), text: String::new() };
    /// let x = db.batch_write().put(&n).delete(Note::key("ann", 2).unwrap()).explain().unwrap();
    /// assert_eq!(x.actions.len(), 2);
    /// assert_eq!(x.cost.unwrap().total(), 4.0); // put: table + GSI1; delete: at most table + GSI1
    /// ```
    pub fn explain(&self) -> Result<Explain, Error> {
        let mut x = Explain::new("BatchWriteItem", &self.db.table);
        let cost = WriteCost::sum(self.costs.iter().cloned());
        for input in self.to_input()? {
            x.actions.extend(Explain::from(&input).actions);
        }
        x.cost = cost;
        Ok(x)
    }

    /// Sends the batch in chunks of 25, a few at once, retrying unprocessed
    /// items and throttled calls under the table's [`crate::RetryPolicy`].
    ///
    /// `Ok` when every request was written. Otherwise
    /// [`Error::BatchIncomplete`] holds the [`BatchWriteOutcome`]: what was
    /// written, what is still unprocessed, and what failed with which
    /// error; a failed call does not stop the other chunks. An encoding
    /// error found before sending is returned as it is, and nothing is sent.
    pub async fn send(self) -> Result<BatchWriteOutcome, Error> {
        let requests = self.built?;
        let db = &self.db;
        let chunks: Vec<Vec<WriteRequest>> = requests.chunks(25).map(<[_]>::to_vec).collect();
        let mut results = futures_util::stream::iter(chunks)
            .map(|c| write_chunk(db, c))
            .buffer_unordered(CONCURRENCY);
        let mut outcome = BatchWriteOutcome::default();
        while let Some(chunk) = results.next().await {
            outcome.written += chunk.written;
            outcome.unprocessed.extend(chunk.unprocessed);
            outcome.calls += chunk.calls;
            outcome.throttled.extend(chunk.throttled);
            if let Some(f) = chunk.failed {
                outcome.failed.push(f);
            }
        }
        if outcome.is_complete() {
            Ok(outcome)
        } else {
            Err(Error::BatchIncomplete(Box::new(outcome)))
        }
    }
}

into_future!(BatchWrite, BatchWriteOutcome);

/// What became of one chunk.
struct Chunk {
    written: usize,
    unprocessed: Vec<WriteRequest>,
    failed: Option<BatchFailure>,
    calls: u32,
    /// Why the last call was throttled, when the retries ran out so.
    throttled: Vec<Throttle>,
}

/// The input of one chunk.
fn write_input(db: &Db, requests: Vec<WriteRequest>) -> BatchWriteItemInputBuilder {
    BatchWriteItemInput::builder().request_items(&*db.table, requests)
}

/// One chunk in one span, its retries included.
async fn write_chunk(db: &Db, pending: Vec<WriteRequest>) -> Chunk {
    let to = To::db(db);
    let span = send::open(&to, &write_input(db, pending.clone()));
    let chunk = span.run(write_chunk_calls(db, &to, pending, &span)).await;
    span.calls(chunk.calls);
    span.unprocessed(chunk.unprocessed.len());
    span.throttles(&chunk.throttled);
    if let Some(f) = &chunk.failed {
        span.error(&f.error);
    }
    chunk
}

async fn write_chunk_calls(
    db: &Db,
    to: &To<'_>,
    mut pending: Vec<WriteRequest>,
    span: &Span,
) -> Chunk {
    let policy = db.retry;
    let mut attempt = 0;
    let mut written = 0;
    let mut throttled;
    loop {
        attempt += 1;
        let res = send::call(span, to, write_input(db, pending.clone())).await;
        throttled = Vec::new();
        match res {
            Ok(out) => {
                let left = out
                    .unprocessed_items()
                    .and_then(|m| m.get(&*db.table))
                    .cloned()
                    .unwrap_or_default();
                written += pending.len().saturating_sub(left.len());
                pending = left;
                if pending.is_empty() {
                    break;
                }
            }
            Err(e) if retryable(&e) => throttled = throttles_of_retry(e),
            Err(e) => {
                return Chunk {
                    written,
                    unprocessed: Vec::new(),
                    failed: Some(BatchFailure {
                        requests: pending,
                        error: Error::from_sdk(e, attempt),
                    }),
                    calls: attempt,
                    throttled: Vec::new(),
                };
            }
        }
        if attempt >= policy.max_attempts.max(1) {
            break;
        }
        tokio::time::sleep(policy.delay(attempt)).await;
    }
    Chunk {
        written,
        unprocessed: pending,
        failed: None,
        calls: attempt,
        throttled,
    }
}
