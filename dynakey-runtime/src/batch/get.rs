//! Batch get: keys in chunks of 100, read a few chunks at once, retrying
//! the keys DynamoDB leaves unprocessed.

use std::collections::HashSet;
use std::fmt;
use std::marker::PhantomData;

use aws_sdk_dynamodb::operation::batch_get_item::builders::BatchGetItemInputBuilder;
use aws_sdk_dynamodb::operation::batch_get_item::BatchGetItemInput;
use aws_sdk_dynamodb::types::{AttributeValue, KeysAndAttributes};
use futures_util::StreamExt;

use super::{retryable, throttles_of_retry, CONCURRENCY};
use crate::codec::{AttrPath, DecodeError, Item};
use crate::db::Db;
use crate::entity::Entity;
use crate::error::{Error, Throttle};
use crate::explain::Explain;
use crate::key::Key;
use crate::obs::Span;
use crate::ops::into_future;
use crate::send::{self, To};
use crate::write::build_err;

/// A batch get of entity `E`. Build it with [`Db::batch_get`].
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
/// db.put(&Note { user: "ann".into(), id: 1, tag: None, text: String::new() }).await.unwrap();
/// let keys = (1..=150).map(|id| Note::key("ann", id).unwrap());
/// let out = db.batch_get(keys).consistent().await.unwrap();
/// assert_eq!(out.items.len(), 1);
/// assert!(out.unprocessed.is_empty());
/// # });
/// ```
#[must_use = "a batch does nothing until sent"]
pub struct BatchGet<E> {
    pub(super) db: Db,
    pub(super) keys: Vec<Key<E>>,
    pub(super) consistent: bool,
    pub(super) _e: PhantomData<fn() -> E>,
}

impl<E> Clone for BatchGet<E> {
    fn clone(&self) -> Self {
        BatchGet {
            db: self.db.clone(),
            keys: self.keys.clone(),
            consistent: self.consistent,
            _e: PhantomData,
        }
    }
}

impl<E: Entity> fmt::Debug for BatchGet<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BatchGet")
            .field("table", &self.db.table)
            .field("keys", &self.keys)
            .field("consistent", &self.consistent)
            .finish()
    }
}

/// What a batch get read, and the keys it could not read after every retry
/// (see the example on [`BatchGet`]).
#[derive(Debug)]
#[non_exhaustive]
pub struct BatchGetOutcome<E> {
    /// The items found (in no particular order; absent keys are left out).
    pub items: Vec<E>,
    /// Keys still unprocessed.
    pub unprocessed: Vec<Key<E>>,
    /// BatchGetItem calls made.
    pub calls: u32,
    /// Why DynamoDB throttled the calls whose retries ran out while
    /// throttled (their keys are in `unprocessed`): the reasons of each
    /// such chunk's last call.
    pub throttled: Vec<Throttle>,
}

impl<E: Entity> BatchGet<E> {
    /// Strongly consistent reads.
    pub fn consistent(mut self) -> Self {
        self.consistent = true;
        self
    }

    /// The keys in chunks of 100, duplicates read once.
    fn chunks(&self) -> Vec<Vec<Item>> {
        let mut seen = HashSet::new();
        let keys: Vec<Item> = self
            .keys
            .iter()
            .filter(|k| seen.insert((k.pk().to_owned(), k.sk().map(str::to_owned))))
            .map(Key::to_attributes)
            .collect();
        keys.chunks(100).map(<[_]>::to_vec).collect()
    }

    /// The SDK inputs of the batch, one per chunk of 100 keys, without
    /// sending them.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # struct Note { user: String, id: u32, text: String }
    /// use dynakey_runtime::Entity;
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let db = backend.db("notes");
    /// let inputs = db.batch_get((0..150).map(|id| Note::key("ann", id).unwrap())).to_input().unwrap();
    /// assert_eq!(inputs.len(), 2);
    /// ```
    pub fn to_input(&self) -> Result<Vec<BatchGetItemInput>, Error> {
        self.chunks()
            .into_iter()
            .map(|c| {
                get_input(&self.db, c, self.consistent)?
                    .build()
                    .map_err(build_err)
            })
            .collect()
    }

    /// The batch in readable form: one `Get` action per key.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # struct Note { user: String, id: u32, text: String }
    /// use dynakey_runtime::Entity;
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let db = backend.db("notes");
    /// let x = db.batch_get([Note::key("ann", 1).unwrap()]).explain().unwrap();
    /// assert_eq!((x.operation.as_str(), x.actions.len()), ("BatchGetItem", 1));
    /// ```
    pub fn explain(&self) -> Result<Explain, Error> {
        let mut x = Explain::new("BatchGetItem", &self.db.table);
        for input in self.to_input()? {
            x.actions.extend(Explain::from(&input).actions);
        }
        Ok(x)
    }

    /// Sends the batch in chunks of 100, retrying unprocessed keys.
    pub async fn send(self) -> Result<BatchGetOutcome<E>, Error> {
        let db = &self.db;
        let consistent = self.consistent;
        let chunks = self.chunks();
        let entity = E::META.type_name;
        let mut results = futures_util::stream::iter(chunks)
            .map(|c| get_chunk(db, c, consistent, entity))
            .buffer_unordered(CONCURRENCY);
        let mut out = BatchGetOutcome {
            items: Vec::new(),
            unprocessed: Vec::new(),
            calls: 0,
            throttled: Vec::new(),
        };
        while let Some(r) = results.next().await {
            let (items, unprocessed, calls, throttled) = r?;
            out.calls += calls;
            out.throttled.extend(throttled);
            for it in &items {
                out.items.push(E::from_item(it)?);
            }
            for k in unprocessed {
                out.unprocessed.push(key_of::<E>(&k)?);
            }
        }
        Ok(out)
    }
}

into_future!(BatchGet<E>, BatchGetOutcome<E>);

/// A typed key from the key attributes DynamoDB handed back.
fn key_of<E: Entity>(m: &Item) -> Result<Key<E>, Error> {
    let s = |a: &'static str| match m.get(a) {
        Some(AttributeValue::S(s)) => Ok(s.clone()),
        Some(other) => Err(DecodeError::mismatch(&AttrPath::root(a), "S", other).into()),
        None => Err(Error::from(DecodeError::missing(&AttrPath::root(a)))),
    };
    let sk = match &E::META.sk {
        Some(k) => Some((k.attr, s(k.attr)?)),
        None => None,
    };
    Ok(Key::__new(E::META.pk.attr, s(E::META.pk.attr)?, sk))
}

/// The input of one chunk.
fn get_input(
    db: &Db,
    keys: Vec<Item>,
    consistent: bool,
) -> Result<BatchGetItemInputBuilder, Error> {
    let ka = KeysAndAttributes::builder()
        .set_keys(Some(keys))
        .set_consistent_read(consistent.then_some(true))
        .build()
        .map_err(build_err)?;
    Ok(BatchGetItemInput::builder().request_items(&*db.table, ka))
}

/// What one chunk of a batch get read: items, keys left, calls, and why
/// the last call was throttled when the retries ran out so.
type GotChunk = (Vec<Item>, Vec<Item>, u32, Vec<Throttle>);

async fn get_chunk(
    db: &Db,
    pending: Vec<Item>,
    consistent: bool,
    entity: &'static str,
) -> Result<GotChunk, Error> {
    let to = To::db(db).entity(entity);
    let span = send::open(&to, &get_input(db, pending.clone(), consistent)?);
    let res = span
        .run(get_chunk_calls(db, &to, pending, consistent, &span))
        .await;
    if let Ok((found, left, calls, throttled)) = &res {
        span.calls(*calls);
        span.unprocessed(left.len());
        span.throttles(throttled);
        span.counts(found.len() as i32, found.len() as i32);
    }
    span.end(res)
}

async fn get_chunk_calls(
    db: &Db,
    to: &To<'_>,
    mut pending: Vec<Item>,
    consistent: bool,
    span: &Span,
) -> Result<GotChunk, Error> {
    let policy = db.retry;
    let mut found = Vec::new();
    let mut attempt = 0;
    loop {
        attempt += 1;
        let res = send::call(span, to, get_input(db, pending.clone(), consistent)?).await;
        let mut throttled = Vec::new();
        match res {
            Ok(out) => {
                if let Some(items) = out.responses().and_then(|m| m.get(&*db.table)) {
                    found.extend(items.iter().cloned());
                }
                pending = out
                    .unprocessed_keys()
                    .and_then(|m| m.get(&*db.table))
                    .map(|ka| ka.keys().to_vec())
                    .unwrap_or_default();
                if pending.is_empty() {
                    return Ok((found, pending, attempt, throttled));
                }
            }
            Err(e) if retryable(&e) => throttled = throttles_of_retry(e),
            Err(e) => return Err(Error::from_sdk(e, attempt)),
        }
        if attempt >= policy.max_attempts.max(1) {
            return Ok((found, pending, attempt, throttled));
        }
        tokio::time::sleep(policy.delay(attempt)).await;
    }
}
