//! The table handle and its single-item operations: put, get, delete,
//! update. Every request goes through `aws_sdk_dynamodb::Client`, so any
//! client works: real DynamoDB, the embedded engine, any endpoint.

use std::future::{Future, IntoFuture};
use std::hash::{BuildHasher, Hasher};
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use aws_sdk_dynamodb::types::{AttributeValue, ReturnValue, ReturnValuesOnConditionCheckFailure};
use aws_sdk_dynamodb::Client;

use crate::codec::Item;
use crate::entity::{Entity, EntityMeta};
use crate::error::{Error, ItemRef};
use crate::expr::{Condition, Placeholders, Update};
use crate::key::Key;
use crate::size::{item_size, MAX_ITEM_SIZE};

/// A boxed future, what the operation builders resolve to with `.await`.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Bounded, jittered exponential backoff for batch retries.
///
/// ```
/// use std::time::Duration;
/// let p = dynakey_runtime::RetryPolicy::default();
/// for attempt in 1..20 {
///     assert!(p.delay(attempt) <= p.max_delay);
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Calls per chunk, the first included.
    pub max_attempts: u32,
    /// The delay before the second call (before jitter).
    pub base_delay: Duration,
    /// The largest delay.
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_attempts: 8,
            base_delay: Duration::from_millis(25),
            max_delay: Duration::from_secs(2),
        }
    }
}

impl RetryPolicy {
    /// The delay after failed attempt `attempt` (from 1): a random duration
    /// up to `min(max_delay, base_delay * 2^(attempt-1))` ("full jitter").
    pub fn delay(&self, attempt: u32) -> Duration {
        let exp = self
            .base_delay
            .saturating_mul(1u32 << attempt.saturating_sub(1).min(20))
            .min(self.max_delay);
        let nanos = exp.as_nanos() as u64;
        if nanos == 0 {
            return Duration::ZERO;
        }
        Duration::from_nanos(random_u64() % (nanos + 1))
    }
}

/// A random number from the standard library's hasher keys.
pub(crate) fn random_u64() -> u64 {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64),
    );
    h.finish()
}

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
/// let local = dynakey_runtime::local::memory().unwrap();
/// let db = Db::new(local.client().clone(), "notes");
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
}

impl Db {
    /// A handle on table `table` through `client`.
    pub fn new(client: Client, table: impl Into<String>) -> Self {
        Self {
            client,
            table: Arc::from(table.into()),
            retry: RetryPolicy::default(),
        }
    }

    /// The same table with another batch retry policy.
    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// The client.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The table name.
    pub fn table_name(&self) -> &str {
        &self.table
    }

    /// The batch retry policy.
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

    /// Writes `e` (replacing an item with the same key).
    pub fn put<E: Entity>(&self, e: &E) -> Put<E> {
        Put {
            db: self.clone(),
            item: e.to_item().map_err(Error::from),
            cond: None,
            return_old: false,
            old_on_fail: false,
            _e: PhantomData,
        }
    }

    /// Reads the item at `key`.
    pub fn get<E: Entity>(&self, key: Key<E>) -> Get<E> {
        Get {
            db: self.clone(),
            key,
            consistent: false,
        }
    }

    /// Deletes the item at `key` (no error when it is absent, unless a
    /// condition says so).
    pub fn delete<E: Entity>(&self, key: Key<E>) -> Delete<E> {
        Delete {
            db: self.clone(),
            key,
            cond: None,
            return_old: false,
            old_on_fail: false,
        }
    }

    /// Updates the item at `key` with a hand-built [`Update`]. It does not
    /// keep index keys in step: prefer [`Db::update`] with the derive's
    /// `E::update(..)`, which rewrites every index key its inputs feed.
    pub fn update_raw<E: Entity>(&self, key: Key<E>, update: Update) -> UpdateItem<E> {
        UpdateItem {
            db: self.clone(),
            key,
            update,
            cond: None,
            ret: None,
            old_on_fail: false,
            pre: None,
        }
    }

    /// Sends a typed update built by the derive, e.g.
    /// `db.update(WorkItem::update(id).set_status(WorkStatus::Closed))`.
    /// It rewrites (or, for a sparse index, removes) every index key whose
    /// inputs it sets; an update that sets only some inputs of a key does
    /// not compile (DYNA226).
    pub fn update<U: crate::update::TypedUpdate>(&self, update: U) -> UpdateItem<U::Entity> {
        match update.into_parts() {
            Ok(parts) => UpdateItem {
                db: self.clone(),
                key: parts.key,
                update: parts.update,
                cond: parts.condition,
                ret: None,
                old_on_fail: false,
                pre: None,
            },
            Err(e) => UpdateItem {
                db: self.clone(),
                key: Key::__new(U::Entity::META.pk.attr, String::new(), None),
                update: Update::new(),
                cond: None,
                ret: None,
                old_on_fail: false,
                pre: Some(e),
            },
        }
    }
}

/// The key of an item as text, from its key attributes.
pub(crate) fn key_text(meta: &EntityMeta, item: &Item) -> ItemRef {
    let s = |a: &str| match item.get(a) {
        Some(AttributeValue::S(s)) => s.clone(),
        Some(other) => format!("{other:?}"),
        None => String::new(),
    };
    ItemRef {
        entity: meta.discriminator,
        pk: s(meta.pk.attr),
        sk: meta.sk.as_ref().map(|k| s(k.attr)),
    }
}

/// The [`ItemRef`] of a typed key.
pub(crate) fn key_ref<E: Entity>(key: &Key<E>) -> ItemRef {
    ItemRef {
        entity: E::META.discriminator,
        pk: key.pk().to_owned(),
        sk: key.sk().map(str::to_owned),
    }
}

/// Optimistic lock for a put of a `#[dynamo(version)]` entity: writes the
/// next version into `item` and adds the condition that the stored version
/// is the one the value was read at (no item at all for version 0).
pub(crate) fn versioned<E: Entity>(
    item: &mut Item,
    cond: Option<Condition>,
) -> Result<Option<Condition>, Error> {
    let Some(attr) = E::META.version_attr else {
        return Ok(cond);
    };
    let (version, next) = bump_version(item, attr)?;
    let check = if version == 0 {
        Condition::attr(E::META.pk.attr).not_exists()
    } else {
        Condition::attr(attr).eq(AttributeValue::N(version.to_string()))
    };
    item.insert(attr.to_owned(), next);
    Ok(Some(Condition::join(cond, check)))
}

/// The version an item was read at and the attribute of the next one.
pub(crate) fn bump_version(item: &Item, attr: &str) -> Result<(u128, AttributeValue), Error> {
    let version = match item.get(attr) {
        None => 0,
        Some(AttributeValue::N(n)) => n.parse::<u128>().map_err(|_| Error::Validation {
            message: format!("version attribute `{attr}` holds {n:?}, not a non-negative integer"),
        })?,
        Some(other) => {
            return Err(Error::Validation {
                message: format!("version attribute `{attr}` holds {other:?}, not a number"),
            })
        }
    };
    Ok((version, AttributeValue::N((version + 1).to_string())))
}

/// Refuses an item over 400 KB.
pub(crate) fn check_size(meta: &EntityMeta, item: &Item) -> Result<(), Error> {
    let size = item_size(item);
    if size > MAX_ITEM_SIZE {
        return Err(Error::ItemTooLarge {
            size,
            key: key_text(meta, item).to_string(),
        });
    }
    for (name, v) in item {
        if let Some((below, n, why)) = bad_number(v) {
            return Err(Error::Validation {
                message: format!(
                    "{} {}: attribute `{name}{below}` holds the number {n}, which {why}; DynamoDB cannot store it",
                    meta.discriminator,
                    key_text(meta, item)
                ),
            });
        }
    }
    Ok(())
}

/// A number DynamoDB cannot store inside `v` (NaN, an infinity, more than
/// 38 digits, a magnitude outside 1E-130..1E+126): its path below `v`, its
/// text and why. Allocates nothing unless it finds one (this runs on every
/// write).
fn bad_number(v: &AttributeValue) -> Option<(String, String, &'static str)> {
    let bad = |n: &String| crate::number::number_problem(n).map(|why| (n.clone(), why));
    match v {
        AttributeValue::N(n) => bad(n).map(|(n, why)| (String::new(), n, why)),
        AttributeValue::Ns(ns) => ns
            .iter()
            .find_map(bad)
            .map(|(n, why)| (String::new(), n, why)),
        AttributeValue::L(l) => l
            .iter()
            .enumerate()
            .find_map(|(i, x)| bad_number(x).map(|(p, n, why)| (format!("[{i}]{p}"), n, why))),
        AttributeValue::M(m) => m
            .iter()
            .find_map(|(k, x)| bad_number(x).map(|(p, n, why)| (format!(".{k}{p}"), n, why))),
        _ => None,
    }
}

/// `Some(map)` unless empty.
fn non_empty(m: Option<&Item>) -> Option<&Item> {
    m.filter(|m| !m.is_empty())
}

fn decode_opt<E: Entity>(m: Option<&Item>) -> Result<Option<E>, Error> {
    non_empty(m)
        .map(E::from_item)
        .transpose()
        .map_err(Error::from)
}

macro_rules! condition_failed {
    ($err:expr, $($ty:ident)::+, $attempts:expr) => {{
        let err = $err;
        if let Some(aws_sdk_dynamodb::operation::$($ty)::+::ConditionalCheckFailedException(c)) =
            err.as_service_error()
        {
            Error::ConditionFailed {
                item: non_empty(c.item()).cloned(),
            }
        } else {
            Error::from_sdk(err, $attempts)
        }
    }};
}

/// A put; `.await` (or [`Put::send`]) it. Resolves to the old item when
/// [`Put::return_old`] was asked, else `None`.
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
/// use dynakey_runtime::{Entity, Error};
/// let local = dynakey_runtime::local::memory().unwrap();
/// let db = local.db("notes");
/// db.create_table(&[Note::META]).await.unwrap();
/// let n = Note { user: "ann".into(), id: 1, tag: None, text: "v1".into() };
/// assert_eq!(db.put(&n).if_not_exists().await.unwrap(), None);
/// let err = db.put(&n).if_not_exists().return_old_on_fail().await.unwrap_err();
/// assert!(matches!(err, Error::ConditionFailed { item: Some(_) }));
/// let v2 = Note { text: "v2".into(), ..n.clone() };
/// assert_eq!(db.put(&v2).return_old().await.unwrap(), Some(n));
/// # });
/// ```
#[must_use = "a put does nothing until awaited"]
pub struct Put<E> {
    db: Db,
    item: Result<Item, Error>,
    cond: Option<Condition>,
    return_old: bool,
    old_on_fail: bool,
    _e: PhantomData<fn() -> E>,
}

impl<E: Entity> Put<E> {
    /// Only when no item has this key.
    pub fn if_not_exists(self) -> Self {
        self.condition(Condition::attr(E::META.pk.attr).not_exists())
    }

    /// Only when an item has this key (replace, never create).
    pub fn if_exists(self) -> Self {
        self.condition(Condition::attr(E::META.pk.attr).exists())
    }

    /// Only when `cond` holds (and-ed with any condition already set).
    pub fn condition(mut self, cond: Condition) -> Self {
        self.cond = Some(Condition::join(self.cond.take(), cond));
        self
    }

    /// Resolve to the replaced item (`ReturnValues = ALL_OLD`).
    pub fn return_old(mut self) -> Self {
        self.return_old = true;
        self
    }

    /// On a failed condition, put the item as it was into
    /// [`Error::ConditionFailed`].
    pub fn return_old_on_fail(mut self) -> Self {
        self.old_on_fail = true;
        self
    }

    /// Sends the put.
    pub async fn send(self) -> Result<Option<E>, Error> {
        let mut item = self.item?;
        let cond = versioned::<E>(&mut item, self.cond)?;
        check_size(E::META, &item)?;
        let mut cx = Placeholders::default();
        let cond = cond.map(|c| c.render(&mut cx)).transpose()?;
        let mut req = self
            .db
            .client
            .put_item()
            .table_name(&*self.db.table)
            .set_item(Some(item))
            .set_condition_expression(cond)
            .set_expression_attribute_names(cx.names())
            .set_expression_attribute_values(cx.values());
        if self.return_old {
            req = req.return_values(ReturnValue::AllOld);
        }
        if self.old_on_fail {
            req = req.return_values_on_condition_check_failure(
                ReturnValuesOnConditionCheckFailure::AllOld,
            );
        }
        match req.send().await {
            Ok(out) => decode_opt(out.attributes()),
            Err(e) => Err(condition_failed!(
                e,
                put_item::PutItemError,
                self.db.sdk_attempts()
            )),
        }
    }
}

impl<E: Entity> IntoFuture for Put<E> {
    type Output = Result<Option<E>, Error>;
    type IntoFuture = BoxFuture<'static, Self::Output>;
    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}

/// A get; `.await` it for `Option<E>`.
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
/// assert_eq!(db.get(Note::key("ann", 9).unwrap()).consistent().await.unwrap(), None);
/// # });
/// ```
#[must_use = "a get does nothing until awaited"]
pub struct Get<E> {
    db: Db,
    key: Key<E>,
    consistent: bool,
}

impl<E: Entity> Get<E> {
    /// A strongly consistent read.
    pub fn consistent(mut self) -> Self {
        self.consistent = true;
        self
    }

    /// Sends the get.
    pub async fn send(self) -> Result<Option<E>, Error> {
        let out = self
            .db
            .client
            .get_item()
            .table_name(&*self.db.table)
            .set_key(Some(self.key.to_attributes()))
            .set_consistent_read(self.consistent.then_some(true))
            .send()
            .await
            .map_err(|e| Error::from_sdk(e, self.db.sdk_attempts()))?;
        decode_opt(out.item())
    }
}

impl<E: Entity> IntoFuture for Get<E> {
    type Output = Result<Option<E>, Error>;
    type IntoFuture = BoxFuture<'static, Self::Output>;
    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}

/// A delete; `.await` it. Resolves to the deleted item when
/// [`Delete::return_old`] was asked.
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
/// use dynakey_runtime::{Entity, Error};
/// let local = dynakey_runtime::local::memory().unwrap();
/// let db = local.db("notes");
/// db.create_table(&[Note::META]).await.unwrap();
/// let err = db.delete(Note::key("ann", 1).unwrap()).if_exists().await.unwrap_err();
/// assert!(matches!(err, Error::ConditionFailed { item: None }));
/// # });
/// ```
#[must_use = "a delete does nothing until awaited"]
pub struct Delete<E> {
    db: Db,
    key: Key<E>,
    cond: Option<Condition>,
    return_old: bool,
    old_on_fail: bool,
}

impl<E: Entity> Delete<E> {
    /// Only when the item exists.
    pub fn if_exists(self) -> Self {
        self.condition(Condition::attr(E::META.pk.attr).exists())
    }

    /// Only when `cond` holds.
    pub fn condition(mut self, cond: Condition) -> Self {
        self.cond = Some(Condition::join(self.cond.take(), cond));
        self
    }

    /// Resolve to the deleted item.
    pub fn return_old(mut self) -> Self {
        self.return_old = true;
        self
    }

    /// On a failed condition, put the item as it was into the error.
    pub fn return_old_on_fail(mut self) -> Self {
        self.old_on_fail = true;
        self
    }

    /// Sends the delete.
    pub async fn send(self) -> Result<Option<E>, Error> {
        let mut cx = Placeholders::default();
        let cond = self.cond.map(|c| c.render(&mut cx)).transpose()?;
        let mut req = self
            .db
            .client
            .delete_item()
            .table_name(&*self.db.table)
            .set_key(Some(self.key.to_attributes()))
            .set_condition_expression(cond)
            .set_expression_attribute_names(cx.names())
            .set_expression_attribute_values(cx.values());
        if self.return_old {
            req = req.return_values(ReturnValue::AllOld);
        }
        if self.old_on_fail {
            req = req.return_values_on_condition_check_failure(
                ReturnValuesOnConditionCheckFailure::AllOld,
            );
        }
        match req.send().await {
            Ok(out) => decode_opt(out.attributes()),
            Err(e) => Err(condition_failed!(
                e,
                delete_item::DeleteItemError,
                self.db.sdk_attempts()
            )),
        }
    }
}

impl<E: Entity> IntoFuture for Delete<E> {
    type Output = Result<Option<E>, Error>;
    type IntoFuture = BoxFuture<'static, Self::Output>;
    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}

/// An update; `.await` it. Resolves to the item after (`return_new`) or
/// before (`return_old`) the update when asked.
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
/// use dynakey_runtime::{expr::Update, Entity};
/// let local = dynakey_runtime::local::memory().unwrap();
/// let db = local.db("notes");
/// db.create_table(&[Note::META]).await.unwrap();
/// let n = Note { user: "ann".into(), id: 1, tag: None, text: "v1".into() };
/// db.put(&n).await.unwrap();
/// let after = db
///     .update_raw(Note::key("ann", 1).unwrap(), Update::new().set("text", "v2"))
///     .if_exists()
///     .return_new()
///     .await
///     .unwrap();
/// assert_eq!(after.unwrap().text, "v2");
/// # });
/// ```
#[must_use = "an update does nothing until awaited"]
pub struct UpdateItem<E> {
    db: Db,
    key: Key<E>,
    update: Update,
    cond: Option<Condition>,
    ret: Option<ReturnValue>,
    old_on_fail: bool,
    /// An error found while building the update, reported on send.
    pre: Option<Error>,
}

impl<E: Entity> UpdateItem<E> {
    /// Only when the item exists (an update otherwise creates it).
    pub fn if_exists(self) -> Self {
        self.condition(Condition::attr(E::META.pk.attr).exists())
    }

    /// Only when `cond` holds.
    pub fn condition(mut self, cond: Condition) -> Self {
        self.cond = Some(Condition::join(self.cond.take(), cond));
        self
    }

    /// Resolve to the item after the update.
    pub fn return_new(mut self) -> Self {
        self.ret = Some(ReturnValue::AllNew);
        self
    }

    /// Resolve to the item before the update.
    pub fn return_old(mut self) -> Self {
        self.ret = Some(ReturnValue::AllOld);
        self
    }

    /// On a failed condition, put the item as it was into the error.
    pub fn return_old_on_fail(mut self) -> Self {
        self.old_on_fail = true;
        self
    }

    /// The updated attributes as they were (`UPDATED_OLD`); read them with
    /// [`UpdateItem::send_raw`], since they are not a whole item.
    pub fn return_updated_old(mut self) -> Self {
        self.ret = Some(ReturnValue::UpdatedOld);
        self
    }

    /// The updated attributes as they are now (`UPDATED_NEW`); read them
    /// with [`UpdateItem::send_raw`].
    pub fn return_updated_new(mut self) -> Self {
        self.ret = Some(ReturnValue::UpdatedNew);
        self
    }

    /// Sends the update; resolves to the whole item when
    /// [`UpdateItem::return_new`] or [`UpdateItem::return_old`] was asked.
    pub async fn send(self) -> Result<Option<E>, Error> {
        let attrs = self.send_raw().await?;
        decode_opt(attrs.as_ref())
    }

    /// Sends the update; resolves to the returned attributes as they come
    /// (any return-values setting, the partial `UPDATED_*` ones included).
    pub async fn send_raw(self) -> Result<Option<Item>, Error> {
        if let Some(e) = self.pre {
            return Err(e);
        }
        let mut cx = Placeholders::default();
        let upd = self.update.render(&mut cx)?;
        let cond = self.cond.map(|c| c.render(&mut cx)).transpose()?;
        let mut req = self
            .db
            .client
            .update_item()
            .table_name(&*self.db.table)
            .set_key(Some(self.key.to_attributes()))
            .update_expression(upd)
            .set_condition_expression(cond)
            .set_expression_attribute_names(cx.names())
            .set_expression_attribute_values(cx.values())
            .set_return_values(self.ret);
        if self.old_on_fail {
            req = req.return_values_on_condition_check_failure(
                ReturnValuesOnConditionCheckFailure::AllOld,
            );
        }
        match req.send().await {
            Ok(out) => Ok(non_empty(out.attributes()).cloned()),
            Err(e) => Err(condition_failed!(
                e,
                update_item::UpdateItemError,
                self.db.sdk_attempts()
            )),
        }
    }
}

impl<E: Entity> IntoFuture for UpdateItem<E> {
    type Output = Result<Option<E>, Error>;
    type IntoFuture = BoxFuture<'static, Self::Output>;
    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}
